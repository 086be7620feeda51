package dev.agcore.docs.mcp;

import java.util.List;

import dev.agcore.mcp.server.McpServerTools;
import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.secret.SecretResolver;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;

/** An MCP server of the application's tools and agents without the starter, from docs/mcp.md. */
class ServerTools {

	static McpAsyncServer server(ToolCallback weatherTool, Agent assistant, ToolPermissionPolicy policy,
			McpStreamableServerTransportProvider transport) {
		// tag::server-tools[]
		McpServerTools tools = McpServerTools.builder()
			.tools(List.of(weatherTool))
			.agent(assistant)
			.permissionPolicy(policy)            // default: allow all
			.secretResolver(SecretResolver.environment("WEATHER_API_KEY"))
			.build();
		McpAsyncServer server = McpServer.async(transport)
			.serverInfo("shop-tools", "1.4.0")
			.capabilities(ServerCapabilities.builder().tools(false).build())
			.tools(tools.specifications())
			.build();
		// end::server-tools[]
		return server;
	}

}
