package dev.agcore.autoconfigure.mcp.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the MCP server that offers the application's tools and
 * agents to MCP clients.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.mcp.server", ignoreUnknownFields = false)
public class McpServerProperties {

	/**
	 * Whether to offer the tools and agents named below to MCP clients, over streamable
	 * HTTP on the application's WebFlux server. The endpoint is as open as the
	 * application leaves it: secure it with Spring Security.
	 */
	private boolean enabled;

	/**
	 * Path of the MCP endpoint, which takes POST, GET and DELETE as streamable HTTP does.
	 */
	private String endpoint = "/mcp";

	/**
	 * Name the server gives clients when they connect. Defaults to spring.application.name,
	 * or "agcore" without one.
	 */
	private @Nullable String name;

	/**
	 * Version the server gives clients when they connect. Defaults to
	 * spring.application.version, or "unknown" without one.
	 */
	private @Nullable String version;

	/**
	 * Instructions sent to clients when they connect, for their model: what the tools are
	 * for and when to use them.
	 */
	private @Nullable String instructions;

	/**
	 * Tools to offer, as an agent's tools are chosen: tool names, globs such as notes_*
	 * and groups such as group:notes. None by default: each tool offered can be called by
	 * anyone who reaches the endpoint.
	 */
	private List<String> tools = new ArrayList<>();

	/**
	 * Agents to offer by name, each as a tool of its name that takes a message and an
	 * optional sessionId and answers with the agent's reply.
	 */
	private List<String> agents = new ArrayList<>();

	/**
	 * How long a tool without a timeout of its own may run before the call is answered
	 * with an error. Agents are bound by their own turn-timeout.
	 */
	private Duration toolTimeout = Duration.ofSeconds(30);

	/**
	 * Origins a browser page may call the endpoint from, as "scheme://host" or
	 * "scheme://host:*" for any port; "*" allows any. A request whose Origin header is
	 * not listed is refused with 403, against DNS rebinding; requests without one (MCP
	 * clients outside a browser) are not affected.
	 */
	private List<String> allowedOrigins = new ArrayList<>(List.of("http://localhost:*", "http://127.0.0.1:*",
			"http://[::1]:*", "https://localhost:*", "https://127.0.0.1:*", "https://[::1]:*"));

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getEndpoint() {
		return this.endpoint;
	}

	public void setEndpoint(String endpoint) {
		this.endpoint = endpoint;
	}

	public @Nullable String getName() {
		return this.name;
	}

	public void setName(@Nullable String name) {
		this.name = name;
	}

	public @Nullable String getVersion() {
		return this.version;
	}

	public void setVersion(@Nullable String version) {
		this.version = version;
	}

	public @Nullable String getInstructions() {
		return this.instructions;
	}

	public void setInstructions(@Nullable String instructions) {
		this.instructions = instructions;
	}

	public List<String> getTools() {
		return this.tools;
	}

	public void setTools(List<String> tools) {
		this.tools = tools;
	}

	public List<String> getAgents() {
		return this.agents;
	}

	public void setAgents(List<String> agents) {
		this.agents = agents;
	}

	public Duration getToolTimeout() {
		return this.toolTimeout;
	}

	public void setToolTimeout(Duration toolTimeout) {
		this.toolTimeout = toolTimeout;
	}

	public List<String> getAllowedOrigins() {
		return this.allowedOrigins;
	}

	public void setAllowedOrigins(List<String> allowedOrigins) {
		this.allowedOrigins = allowedOrigins;
	}

}
