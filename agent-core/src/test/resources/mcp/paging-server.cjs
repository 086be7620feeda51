// A small MCP server on the official TypeScript SDK, for what server-everything does not
// do: listings split into pages of two (tools, resources, prompts), and a tool that waits
// until the client cancels it and records the cancellation, which another tool reports,
// and one that adds a tool and announces the changed list.
// Run over stdio with NODE_PATH pointing at the node_modules holding the SDK.
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const types = require('@modelcontextprotocol/sdk/types.js');

const PAGE = 2;
const tools = [0, 1, 2, 3, 4].map((i) => ({
	name: `tool-${i}`,
	description: `Tool number ${i}`,
	inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
}));
tools.push({ name: 'wait-for-cancel', description: 'Waits until cancelled', inputSchema: { type: 'object' } });
tools.push({ name: 'cancellations', description: 'The cancellations received', inputSchema: { type: 'object' } });
tools.push({
	name: 'add-tool',
	description: 'Adds a tool and announces the changed tool list',
	inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});
const resources = [0, 1, 2].map((i) => ({ uri: `test://resource/${i}`, name: `resource-${i}`, mimeType: 'text/plain' }));
const prompts = [0, 1, 2].map((i) => ({ name: `prompt-${i}`, description: `Prompt number ${i}` }));
const cancellations = [];

function page(items, cursor) {
	const start = cursor ? Number(cursor) : 0;
	const next = start + PAGE;
	return { items: items.slice(start, next), nextCursor: next < items.length ? String(next) : undefined };
}

const server = new Server({ name: 'paging', version: '1.0.0' },
	{ capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} } });

server.setRequestHandler(types.ListToolsRequestSchema, async (request) => {
	const { items, nextCursor } = page(tools, request.params?.cursor);
	return { tools: items, nextCursor };
});
server.setRequestHandler(types.ListResourcesRequestSchema, async (request) => {
	const { items, nextCursor } = page(resources, request.params?.cursor);
	return { resources: items, nextCursor };
});
server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => ({
	contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: `content of ${request.params.uri}` }],
}));
server.setRequestHandler(types.ListPromptsRequestSchema, async (request) => {
	const { items, nextCursor } = page(prompts, request.params?.cursor);
	return { prompts: items, nextCursor };
});
server.setRequestHandler(types.GetPromptRequestSchema, async (request) => ({
	messages: [{ role: 'user', content: { type: 'text', text: `You are ${request.params.name}.` } }],
}));
server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
	const name = request.params.name;
	if (name === 'wait-for-cancel') {
		await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
		cancellations.push({ requestId: extra.requestId, reason: String(extra.signal.reason) });
		return { content: [] };
	}
	if (name === 'add-tool') {
		const added = String(request.params.arguments.name);
		tools.push({ name: added, description: `Added at run time`, inputSchema: { type: 'object' } });
		await server.sendToolListChanged();
		return { content: [{ type: 'text', text: `added ${added}` }] };
	}
	if (name === 'cancellations') {
		return { content: [{ type: 'text', text: JSON.stringify(cancellations) }] };
	}
	return { content: [{ type: 'text', text: `${name}: ${request.params.arguments?.text ?? ''}` }] };
});

server.connect(new StdioServerTransport());
