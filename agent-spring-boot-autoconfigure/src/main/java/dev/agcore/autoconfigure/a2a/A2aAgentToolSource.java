package dev.agcore.autoconfigure.a2a;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.agcore.a2a.client.A2aRemoteAgents;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.mcp.McpServerStatus;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.tool.ToolSource;

/**
 * The remote agents of {@code agent.a2a.remotes} as a source of every configured agent's
 * tools: each is a tool named after its remote, which an agent's {@code tools} list names
 * like any tool.
 */
final class A2aAgentToolSource implements AgentToolSource {

	/** Not a prefix any scope entry has: remotes are selected by their tool names. */
	static final String SCOPE_PREFIX = "a2a:";

	private final A2aRemoteAgents remotes;

	A2aAgentToolSource(A2aRemoteAgents remotes) {
		this.remotes = remotes;
	}

	@Override
	public String scopePrefix() {
		return SCOPE_PREFIX;
	}

	@Override
	public Set<String> servers() {
		return Set.copyOf(this.remotes.names());
	}

	@Override
	public boolean mayOffer(String toolName) {
		return this.remotes.names().contains(toolName);
	}

	@Override
	public Set<String> toolNames() {
		return Set.copyOf(this.remotes.names());
	}

	@Override
	public ToolSource tools() {
		return this.remotes;
	}

	@Override
	public Optional<AgentMiddleware> systemPrompt(String property, String systemPrompt) {
		return Optional.empty();
	}

	@Override
	public List<McpServerStatus> statuses() {
		return List.of();
	}

}
