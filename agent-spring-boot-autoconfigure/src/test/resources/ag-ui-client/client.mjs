// Drives agcore's AG-UI route with the official `@ag-ui/client` HttpAgent and prints what
// it got as one JSON object, for AgUiClientTests to assert on.
// Usage: node client.mjs <URL of an agent's ag-ui route> <URL of an unknown agent's> <directory holding node_modules/@ag-ui/client>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [url, unknownUrl, packages] = process.argv.slice(2);
const { HttpAgent } = await import(
	pathToFileURL(join(packages, 'node_modules', '@ag-ui', 'client', 'dist', 'index.mjs')).href);

// a run: the event types in the order the client applied them, and the messages it assembled
async function run(agent, text) {
	agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: text });
	const events = [];
	const result = await agent.runAgent({}, {
		onEvent({ event }) {
			events.push(event.type);
		},
	});
	return {
		events,
		newMessages: result.newMessages.map(view),
	};
}

function view(message) {
	return {
		role: message.role,
		content: typeof message.content === 'string' ? message.content : null,
		toolCalls: (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.function.name,
			arguments: call.function.arguments })),
		toolCallId: message.toolCallId ?? null,
	};
}

const threadId = `thread-${crypto.randomUUID()}`;
const agent = new HttpAgent({ url, threadId });
const results = {};
results.first = await run(agent, 'What is the weather in Lima?');
results.second = await run(agent, 'And in Quito?');
results.messages = agent.messages.map(view);

try {
	const unknown = new HttpAgent({ url: unknownUrl, threadId });
	unknown.addMessage({ id: crypto.randomUUID(), role: 'user', content: 'Hi' });
	await unknown.runAgent();
	results.error = { thrown: false };
}
catch (error) {
	results.error = { thrown: true, status: error.status ?? null, payload: error.payload ?? null,
		message: String(error.message) };
}

console.log(JSON.stringify(results));
