package dev.agcore.autoconfigure.tool;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.agcore.mcp.McpServerStatus;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.tool.ToolSource;

/**
 * Tools from servers outside the application, such as the MCP servers of
 * {@code agent.mcp.servers}, that {@link AgentTools} gives every configured agent within
 * its {@code tools} scope. A bean of this type is contributed by the auto-configuration
 * of those servers; the tools side needs nothing else from it.
 *
 * @since 0.1.0
 */
public interface AgentToolSource {

	/**
	 * Return the prefix of the scope entries that select this source's tools by server.
	 * @return the prefix, such as {@code mcp:}
	 */
	String scopePrefix();

	/**
	 * Return the names of the configured servers, for checking scope entries.
	 * @return the names
	 */
	Set<String> servers();

	/**
	 * Return whether a tool of this name may be offered once the servers are connected,
	 * so that settings naming it (such as {@code human-in-the-loop.tools}) are not
	 * rejected at startup, before the servers connect.
	 * @param toolName a tool name as agents see it, such as {@code filesystem__write_file}
	 * @return whether it has the name of a server's tool
	 */
	boolean mayOffer(String toolName);

	/**
	 * Return the names of the tools this source always offers, which an agent's
	 * {@code tools} list may name as it names the application's tools (such as the remote
	 * agents of {@code agent.a2a.remotes}).
	 * @return the names; none unless overridden
	 */
	default Set<String> toolNames() {
		return Set.of();
	}

	/**
	 * Return the tools, as they are now.
	 * @return the source
	 */
	ToolSource tools();

	/**
	 * Return the middleware that makes a server's prompt an agent's system prompt, if a
	 * configured system prompt refers to one (such as {@code mcp:<server>/<prompt>}).
	 * @param property the property holding the system prompt, for error messages
	 * @param systemPrompt the configured system prompt
	 * @return the middleware, or empty when the system prompt is plain text
	 * @throws dev.agcore.autoconfigure.AgentConfigurationException naming the property
	 * if it refers to a server that is not configured
	 */
	Optional<AgentMiddleware> systemPrompt(String property, String systemPrompt);

	/**
	 * Return the status of each server, for the actuator.
	 * @return the statuses
	 */
	List<McpServerStatus> statuses();

}
