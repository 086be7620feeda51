package dev.agcore.autoconfigure.mcp;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpConnection;
import dev.agcore.mcp.McpPromptMiddleware;
import dev.agcore.mcp.McpPromptReference;
import dev.agcore.mcp.McpServerStatus;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.ToolSource;

/**
 * The MCP servers of {@code agent.mcp.servers} as a source of every configured agent's
 * tools, and of the system prompts written {@code mcp:<server>/<prompt>}.
 */
final class McpAgentToolSource implements AgentToolSource {

	private final McpClientRegistry registry;

	private final Set<String> servers = new LinkedHashSet<>();

	McpAgentToolSource(McpClientRegistry registry) {
		this.registry = registry;
		registry.connections().forEach((connection) -> this.servers.add(connection.name()));
	}

	@Override
	public String scopePrefix() {
		return ToolScope.MCP_PREFIX;
	}

	@Override
	public Set<String> servers() {
		return Set.copyOf(this.servers);
	}

	@Override
	public boolean mayOffer(String toolName) {
		return this.registry.mayOffer(toolName);
	}

	@Override
	public ToolSource tools() {
		return this.registry;
	}

	@Override
	public Optional<AgentMiddleware> systemPrompt(String property, String systemPrompt) {
		Optional<McpPromptReference> reference = McpPromptReference.parse(systemPrompt);
		if (reference.isEmpty()) {
			return Optional.empty();
		}
		String server = reference.get().server();
		McpConnection connection = this.registry.connection(server)
			.orElseThrow(() -> new AgentConfigurationException(property + " refers to the prompt of MCP server '"
					+ server + "', which is not configured; configured servers: " + this.servers,
					"Use the name of a server under agent.mcp.servers, or write the system prompt itself."));
		return Optional.of(new McpPromptMiddleware(connection, reference.get().prompt(), Map.of()));
	}

	@Override
	public List<McpServerStatus> statuses() {
		return this.registry.statuses();
	}

}
