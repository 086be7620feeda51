package dev.agcore.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agcore.autoconfigure.tool.AgentToolSettings;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.autoconfigure.tool.AgentTools;
import dev.agcore.autoconfigure.tool.ToolDescriptor;
import dev.agcore.mcp.McpServerStatus;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@link Endpoint @Endpoint} that shows the agents of the application: model, tools (with
 * the JSON schema each is sent to the model with), middleware in order, and limits. The
 * system prompt itself is not shown, only its length. When agents get tools from MCP
 * servers, each server's connection is shown too: state, tool count and last error.
 *
 * @since 0.1.0
 */
@Endpoint(id = "agents")
public class AgentsEndpoint {

	private final AgentRegistry agents;

	private final @Nullable AgentTools agentTools;

	private final List<AgentToolSource> toolSources;

	private final Map<String, String> stores;

	private final @Nullable AgentSessionActivity sessions;

	/**
	 * Create an endpoint.
	 * @param agents the agents
	 * @param agentTools what the auto-configuration gave its agents on the tools side, or
	 * {@code null}
	 */
	public AgentsEndpoint(AgentRegistry agents, @Nullable AgentTools agentTools) {
		this(agents, agentTools, List.of());
	}

	/**
	 * Create an endpoint that also shows the servers agents get tools from.
	 * @param agents the agents
	 * @param agentTools what the auto-configuration gave its agents on the tools side, or
	 * {@code null}
	 * @param toolSources the servers outside the application (MCP servers)
	 */
	public AgentsEndpoint(AgentRegistry agents, @Nullable AgentTools agentTools, List<AgentToolSource> toolSources) {
		this(agents, agentTools, toolSources, Map.of(), null);
	}

	/**
	 * Create an endpoint that also shows the stores of the agents and what this instance
	 * saw of their sessions.
	 * @param agents the agents
	 * @param agentTools what the auto-configuration gave its agents on the tools side, or
	 * {@code null}
	 * @param toolSources the servers outside the application (MCP servers)
	 * @param stores the class of each store by its role ({@code conversations},
	 * {@code runs}, …)
	 * @param sessions what this instance saw of the agents' sessions, or {@code null}
	 */
	public AgentsEndpoint(AgentRegistry agents, @Nullable AgentTools agentTools, List<AgentToolSource> toolSources,
			Map<String, String> stores, @Nullable AgentSessionActivity sessions) {
		this.agents = agents;
		this.agentTools = agentTools;
		this.toolSources = List.copyOf(toolSources);
		this.stores = Map.copyOf(new TreeMap<>(stores));
		this.sessions = sessions;
	}

	@ReadOperation
	public AgentsDescriptor agents() {
		Map<String, AgentDescriptor> agents = new LinkedHashMap<>();
		this.agents.all().forEach((agent) -> agents.put(agent.name(), describe(agent)));
		Map<String, McpServerDescriptor> servers = new LinkedHashMap<>();
		this.toolSources.forEach((source) -> source.statuses()
			.forEach((status) -> servers.put(status.name(), McpServerDescriptor.of(status))));
		return new AgentsDescriptor(agents, servers.isEmpty() ? null : servers,
				this.stores.isEmpty() ? null : new TreeMap<>(this.stores));
	}

	@ReadOperation
	public @Nullable AgentDescriptor agent(@Selector String name) {
		return this.agents.find(name).map(this::describe).orElse(null);
	}

	/**
	 * Show what this instance saw of an agent's sessions: counts and times, never
	 * session ids or content ({@code /actuator/agents/{name}/sessions}).
	 * @param name the agent
	 * @param view {@code sessions}
	 * @return the view, or {@code null} (404) for an unknown agent or view
	 */
	@ReadOperation
	public AgentSessionActivity.@Nullable SessionsDescriptor sessions(@Selector String name, @Selector String view) {
		if (this.sessions == null || !"sessions".equals(view) || this.agents.find(name).isEmpty()) {
			return null;
		}
		return this.sessions.describe(name);
	}

	private AgentDescriptor describe(Agent agent) {
		Optional<AgentToolSettings> settings = (this.agentTools != null) ? this.agentTools.settings(agent)
				: Optional.empty();
		Limits limits = new Limits(agent.maxIterations(), agent.turnTimeout().toString(),
				settings.map((tools) -> tools.toolTimeout().toString()).orElse(null),
				settings.map(AgentToolSettings::maxToolResultLength).orElse(null));
		return new AgentDescriptor(agent.name(), agent.model().providerName(), agent.model().modelName(),
				agent.systemPrompt().length(), agent.middleware().stream().map(AgentMiddleware::name).toList(),
				settings.map(AgentToolSettings::scope).orElse(null),
				settings.map(AgentToolSettings::permissionPolicy).orElse(null),
				agent.toolCallbacks().stream().map(ToolDescriptor::of).toList(), limits);
	}

	/**
	 * The agents of the application.
	 *
	 * @param agents the agents by name
	 * @param mcpServers the MCP servers agents get tools from, by name; left out when none
	 * is configured
	 * @param stores the class of each store of the agents by its role
	 * ({@code conversations}, {@code keyValue}, {@code runs}, {@code checkpoints}); left
	 * out when unknown
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record AgentsDescriptor(Map<String, AgentDescriptor> agents,
			@Nullable Map<String, McpServerDescriptor> mcpServers,
			@Nullable Map<String, String> stores) implements OperationResponseBody {
	}

	/**
	 * An MCP server agents get tools from.
	 *
	 * @param transport {@code stdio}, {@code streamable-http} or {@code sse}
	 * @param required whether the application needs it to start
	 * @param state where its connection stands, such as {@code CONNECTED} or
	 * {@code RECONNECTING}
	 * @param tools how many tools it offers
	 * @param lastError why the last attempt failed or the connection was lost; left out
	 * when none did
	 * @param connectedSince when the current connection was made, in ISO-8601; left out
	 * when not connected
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record McpServerDescriptor(String transport, boolean required, String state, int tools,
			@Nullable String lastError, @Nullable String connectedSince) {

		static McpServerDescriptor of(McpServerStatus status) {
			return new McpServerDescriptor(status.transport(), status.required(), status.state().name(),
					status.toolCount(), status.lastError(),
					(status.connectedSince() != null) ? status.connectedSince().toString() : null);
		}

	}

	/**
	 * An agent.
	 *
	 * @param name the agent's name
	 * @param provider the provider of its model
	 * @param model the model's name
	 * @param systemPromptLength the length of its system prompt, in characters
	 * @param middleware the names of its middleware, outermost first
	 * @param toolScope its tool scope as configured ({@code ["*"]} for all tools); left out
	 * for an agent the application built itself
	 * @param permissionPolicy its tool permission policy; left out for an agent the
	 * application built itself
	 * @param tools the tools in its scope
	 * @param limits its bounds
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record AgentDescriptor(String name, String provider, String model, int systemPromptLength,
			List<String> middleware, @Nullable List<String> toolScope, @Nullable String permissionPolicy,
			List<ToolDescriptor> tools, Limits limits) implements OperationResponseBody {
	}

	/**
	 * The bounds of an agent's turns.
	 *
	 * @param maxIterations the most model calls in one turn
	 * @param turnTimeout how long one turn may run, as an ISO-8601 duration
	 * @param toolTimeout how long a tool call may run unless the tool says otherwise, as
	 * an ISO-8601 duration; left out for an agent the application built itself
	 * @param maxToolResultLength the longest tool result sent to the model, in
	 * characters; left out for an agent the application built itself
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Limits(int maxIterations, String turnTimeout, @Nullable String toolTimeout, @Nullable Integer maxToolResultLength) {
	}

}
