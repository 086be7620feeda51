// Server-sent events over fetch: EventSource cannot POST a body or be given a signal.

/**
 * Read a text/event-stream response, calling onEvent(type, data) for each event, with its
 * data parsed as JSON. Resolves when the server ends the stream.
 */
export async function readEvents(response, onEvent) {
	const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
	let buffer = '';
	for (;;) {
		const { value, done } = await reader.read();
		if (done) {
			break;
		}
		buffer = (buffer + value).replace(/\r\n?/g, '\n');
		let end;
		while ((end = buffer.indexOf('\n\n')) >= 0) {
			const block = buffer.slice(0, end);
			buffer = buffer.slice(end + 2);
			dispatch(block, onEvent);
		}
	}
	if (buffer.trim()) {
		dispatch(buffer, onEvent);
	}
}

function dispatch(block, onEvent) {
	let type = 'message';
	const data = [];
	for (const line of block.split('\n')) {
		if (line.startsWith(':')) {
			continue;
		}
		const colon = line.indexOf(':');
		const field = colon < 0 ? line : line.slice(0, colon);
		let value = colon < 0 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) {
			value = value.slice(1);
		}
		if (field === 'event') {
			type = value;
		}
		else if (field === 'data') {
			data.push(value);
		}
	}
	if (data.length === 0) {
		return;
	}
	const text = data.join('\n');
	let parsed;
	try {
		parsed = JSON.parse(text);
	}
	catch {
		parsed = { text };
	}
	onEvent(type, parsed);
}
