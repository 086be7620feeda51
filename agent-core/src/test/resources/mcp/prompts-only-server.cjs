// A small MCP server on the official TypeScript SDK that offers prompts and nothing else:
// it declares neither the tools nor the resources capability, so a client must not list
// tools or resources of it (the conformance suite's initialize scenario is such a server).
// Run over stdio with NODE_PATH pointing at the node_modules holding the SDK.
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const types = require('@modelcontextprotocol/sdk/types.js');

const server = new Server({ name: 'prompts-only', version: '1.0.0' }, { capabilities: { prompts: {} } });

server.setRequestHandler(types.ListPromptsRequestSchema, async () => ({
	prompts: [{ name: 'greeting', description: 'Says hello' }],
}));
server.setRequestHandler(types.GetPromptRequestSchema, async (request) => ({
	messages: [{ role: 'user', content: { type: 'text', text: `Hello from ${request.params.name}.` } }],
}));

server.connect(new StdioServerTransport());
