// A remote agent hosted by the official A2A SDK's server (@a2a-js/sdk: DefaultRequestHandler,
// InMemoryTaskStore, express), for A2aRemoteInteropTests to call through agcore's A2A client.
// Usage: node server.mjs <directory holding node_modules/@a2a-js/sdk and express>
// Prints {"port": <port>} once listening; GET /seen answers what the remote received: each
// POST's path and Authorization header, and each task's text and context id.
//
// Two agents: at / a streaming "trip planner" (status update, artifact, final status with a
// message), at /plain the same without streaming (so clients use message/send). A message
// saying "ask me" ends in input-required, one saying "fail" in failed.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';

const [packages] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(packages, 'node_modules', ...path.split('/'))).href);
const { default: express } = await load('express/index.js');
const server = await load('@a2a-js/sdk/dist/server/index.js');
const serverExpress = await load('@a2a-js/sdk/dist/server/express/index.js');
const { DefaultRequestHandler, InMemoryTaskStore } = server;
const { jsonRpcHandler, agentCardHandler, UserBuilder } = serverExpress;

const seen = { requests: [], tasks: [] };
const turns = new Map();

class TripPlanner {
	async execute(requestContext, eventBus) {
		const message = requestContext.userMessage;
		const text = message.parts.filter((part) => part.kind === 'text').map((part) => part.text).join('');
		const taskId = requestContext.taskId;
		const contextId = requestContext.contextId;
		seen.tasks.push({ text, contextId });
		const turn = (turns.get(contextId) ?? 0) + 1;
		turns.set(contextId, turn);
		const agentMessage = (words) => ({ kind: 'message', role: 'agent', messageId: randomUUID(),
			parts: [{ kind: 'text', text: words }], taskId, contextId });
		const status = (state, words, final) => ({ kind: 'status-update', taskId, contextId, final,
			status: { state, message: agentMessage(words), timestamp: new Date().toISOString() } });
		if (!requestContext.task) {
			eventBus.publish({ kind: 'task', id: taskId, contextId, history: [message],
				status: { state: 'submitted', timestamp: new Date().toISOString() } });
		}
		eventBus.publish(status('working', 'Planning a trip to ' + text, false));
		if (text.includes('ask me')) {
			eventBus.publish(status('input-required', 'Which month do you travel?', true));
		}
		else if (text.includes('fail')) {
			eventBus.publish(status('failed', 'No trains run there', true));
		}
		else {
			eventBus.publish({ kind: 'artifact-update', taskId, contextId, lastChunk: true,
				artifact: { artifactId: 'itinerary', name: 'itinerary',
					parts: [{ kind: 'text', text: 'Day 1: the old town of ' + text }] } });
			eventBus.publish(status('completed', 'Itinerary ready (turn ' + turn + ' of this conversation)', true));
		}
		eventBus.finished();
	}

	async cancelTask(taskId, eventBus) {
		eventBus.finished();
	}
}

function card(port, path, streaming) {
	return {
		name: 'Trip planner',
		description: 'Plans trips: an itinerary for the city you name.',
		url: 'http://127.0.0.1:' + port + path,
		protocolVersion: '0.3.0',
		preferredTransport: 'JSONRPC',
		version: '1.0.0',
		capabilities: { streaming, pushNotifications: false },
		defaultInputModes: ['text'],
		defaultOutputModes: ['text'],
		skills: [{ id: 'itinerary', name: 'Itinerary', description: 'Makes a day-by-day itinerary for a city',
			tags: ['travel'], examples: ['Plan two days in Lisbon'] }],
	};
}

const app = express();
app.use((request, response, next) => {
	if (request.method === 'POST') {
		seen.requests.push({ path: request.path, authorization: request.headers.authorization ?? null });
	}
	next();
});
app.get('/seen', (request, response) => response.json(seen));
const listener = app.listen(0, '127.0.0.1', () => {
	const port = listener.address().port;
	for (const [path, streaming] of [['/plain', false], ['', true]]) {
		const handler = new DefaultRequestHandler(card(port, path || '/', streaming), new InMemoryTaskStore(),
			new TripPlanner());
		app.use(path + '/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
		app.use(path || '/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
	}
	console.log(JSON.stringify({ port }));
});
