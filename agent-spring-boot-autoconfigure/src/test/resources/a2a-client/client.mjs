// Drives agcore's A2A server with the official `@a2a-js/sdk` client and prints what it
// got as one JSON object, for A2aClientTests to assert on.
// Usage: node client.mjs <Agent Card URL> <directory holding node_modules/@a2a-js/sdk>
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [cardUrl, packages] = process.argv.slice(2);
const { A2AClient } = await import(
	pathToFileURL(join(packages, 'node_modules', '@a2a-js', 'sdk', 'dist', 'client', 'index.js')).href);

const client = await A2AClient.fromCardUrl(cardUrl);
const results = {};

function message(text, extra = {}) {
	return { message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text }], ...extra } };
}

function task(response) {
	if ('error' in response) {
		throw new Error('JSON-RPC error ' + JSON.stringify(response.error));
	}
	return response.result;
}

const text = (parts) => parts.filter((part) => part.kind === 'text').map((part) => part.text).join('');

const card = await client.getAgentCard();
results.card = {
	name: card.name,
	url: card.url,
	streaming: card.capabilities.streaming,
	skills: card.skills.map((skill) => skill.id),
};

const sent = task(await client.sendMessage(message('Weather in Lima')));
results.send = {
	kind: sent.kind,
	state: sent.status.state,
	text: text(sent.artifacts[0].parts),
	contextId: sent.contextId,
};

// the stream: the task, the answer's chunks, a final status
const kinds = [];
let streamed = '';
let last;
for await (const event of client.sendMessageStream(message('Weather in Quito'))) {
	kinds.push(event.kind);
	if (event.kind === 'artifact-update') {
		streamed = (event.append ? streamed : '') + text(event.artifact.parts);
	}
	last = event;
}
results.stream = { kinds, text: streamed, state: last.status.state, final: last.final };

const read = task(await client.getTask({ id: sent.id }));
results.get = { id: read.id, state: read.status.state, roles: read.history.map((entry) => entry.role) };

// a tool that needs approval pauses the task; a follow-up message on the task approves
const paused = task(await client.sendMessage(message('Delete /tmp/a')));
const approved = task(await client.sendMessage(message('approve', { taskId: paused.id, contextId: paused.contextId })));
results.approval = {
	pausedState: paused.status.state,
	pendingTool: paused.status.message.parts.find((part) => part.kind === 'data').data.pendingToolCalls[0].name,
	sameTask: approved.id === paused.id,
	state: approved.status.state,
	text: text(approved.artifacts[0].parts),
};

const waiting = task(await client.sendMessage(message('Delete /tmp/b')));
const canceled = task(await client.cancelTask({ id: waiting.id }));
const again = await client.cancelTask({ id: waiting.id });
const missing = await client.getTask({ id: 'no-such-task' });
results.cancel = { state: canceled.status.state, againCode: again.error?.code, missingCode: missing.error?.code };

console.log(JSON.stringify(results));
