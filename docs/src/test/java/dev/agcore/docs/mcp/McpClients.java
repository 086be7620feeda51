package dev.agcore.docs.mcp;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpServerSettings;
import dev.agcore.mcp.McpTransportSettings;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolScope;

/** An MCP client registry built in code and an agent using it, from docs/mcp.md. */
class McpClients {

	// tag::registry[]
	McpClientRegistry filesystem(String npx, Path srv) {    // "npx" and Path.of("/srv"), say
		McpClientRegistry mcp = McpClientRegistry.builder()
			.server(McpServerSettings.of("filesystem",
					new McpTransportSettings.Stdio(npx, List.of("-y", "@modelcontextprotocol/server-filesystem", "shared"),
							Map.of(), srv)))
			.build();
		mcp.start().block(Duration.ofSeconds(30));          // off the event loop; or subscribe
		return mcp;
	}

	Agent librarian(ChatModel model, McpClientRegistry mcp) {
		return Agent.builder()
			.name("librarian")
			.model(model)
			.toolSource(mcp, ToolScope.of("mcp:filesystem/read_*"))
			.build();
	}
	// end::registry[]

}
