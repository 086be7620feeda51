// Replays recorded AG-UI event streams through the official `@ag-ui/client` HttpAgent (its
// SSE parser, schema validation, sequence verification and message assembly), with a fetch
// that answers each run with one recorded stream, and prints per stream what the client made
// of it as one JSON object, for AgUiClientTests to assert on.
// Usage: node replay.mjs <JSON file: {"<name>": "<SSE body>"}> <directory holding node_modules/@ag-ui/client>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [file, packages] = process.argv.slice(2);
const { HttpAgent } = await import(
	pathToFileURL(join(packages, 'node_modules', '@ag-ui', 'client', 'dist', 'index.mjs')).href);

// what the client complains about: unknown fields it strips, events it cannot place
const warnings = [];
console.warn = (...args) => warnings.push(args.map(String).join(' '));

const streams = JSON.parse(readFileSync(file, 'utf8'));
const results = {};
for (const [name, body] of Object.entries(streams)) {
	warnings.length = 0;
	const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
	const agent = new HttpAgent({ url: 'http://replay.invalid/ag-ui', threadId: 'thread-1', fetch,
		initialState: { client: 'kept' } });
	agent.addMessage({ id: 'user-1', role: 'user', content: 'Hi' });
	const types = [];
	let finished = null;
	let runError = null;
	let error = null;
	try {
		await agent.runAgent({ runId: 'run-1' }, {
			onEvent({ event }) {
				types.push(event.type);
			},
			onRunFinishedEvent(params) {
				finished = { outcome: params.outcome, interrupts: params.interrupts ?? null };
			},
			onRunErrorEvent({ event }) {
				runError = { code: event.code ?? null, message: event.message };
			},
		});
	}
	catch (thrown) {
		error = String(thrown.message ?? thrown);
	}
	results[name] = {
		error,
		types,
		finished,
		runError,
		warnings: [...warnings],
		state: agent.state,
		messages: agent.messages.map((message) => ({
			id: message.id,
			role: message.role,
			content: message.content ?? null,
			toolCalls: (message.toolCalls ?? []).map((call) => call.id),
			toolCallId: message.toolCallId ?? null,
			subagentRunId: message.subagentRunId ?? null,
		})),
	};
}
console.log(JSON.stringify(results));
