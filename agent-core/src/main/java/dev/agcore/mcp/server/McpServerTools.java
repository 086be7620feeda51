package dev.agcore.mcp.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import dev.agcore.audit.Auditor;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.secret.SecretResolver;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;

/**
 * The tools an MCP server offers for some of an application's tools and agents, as the
 * MCP Java SDK's tool specifications, for any of its server transports:
 * <pre class="code">
 * McpServerTools tools = McpServerTools.builder()
 *     .tools(registry.select(List.of("get_weather")))
 *     .agent(assistant)
 *     .permissionPolicy(policy)
 *     .build();
 * McpAsyncServer server = McpServer.async(transport)
 *     .serverInfo("my-app", "1.0.0")
 *     .capabilities(ServerCapabilities.builder().tools(false).build())
 *     .tools(tools.specifications())
 *     .build();
 * </pre>
 * <ul>
 * <li>A tool keeps its name, description and input schema; its
 * {@linkplain dev.agcore.tool.ToolMetadata#permission() permission} becomes the
 * {@code readOnlyHint} and {@code destructiveHint} clients show. A call runs as an
 * agent's would: the permission policy decides first, secret references are resolved and
 * scrubbed, the tool runs on a bounded-elastic thread within its timeout, with a
 * {@link ToolContext} whose session is the MCP session and whose agent is
 * {@value #CALLER}; progress it reports goes to the client when the client asked for
 * it.</li>
 * <li>An agent becomes a tool of its own name taking a {@code message} and an optional
 * {@code sessionId}, answering with the text of one turn.</li>
 * <li>Whatever fails, the call is answered with an error result ({@code isError}) whose
 * text says what went wrong, never with a stack trace.</li>
 * </ul>
 * Immutable.
 *
 * @since 0.1.0
 */
public final class McpServerTools {

	/**
	 * The agent name calls over MCP run under: what a {@link ToolPermissionPolicy} is
	 * asked about and what {@link ToolContext#agentName()} says.
	 */
	public static final String CALLER = "mcp";

	private final List<AsyncToolSpecification> specifications;

	private McpServerTools(List<AsyncToolSpecification> specifications) {
		this.specifications = List.copyOf(specifications);
	}

	/**
	 * Start building the tools.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the tool specifications, tools first, then agents, each in the order given.
	 * @return the specifications, for {@code McpServer.async(transport).tools(...)}
	 */
	public List<AsyncToolSpecification> specifications() {
		return this.specifications;
	}

	/**
	 * Return the names of the tools offered.
	 * @return the names, in the order of {@link #specifications()}
	 */
	public List<String> names() {
		return this.specifications.stream().map((specification) -> specification.tool().name()).toList();
	}

	/** A tool call id: MCP calls have none the tool could be told. */
	static String callId() {
		return "mcp-" + UUID.randomUUID();
	}

	/** A new session, for a call that names none. */
	static String sessionId() {
		return "mcp-" + UUID.randomUUID();
	}

	static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + " s" : millis + " ms";
	}

	/**
	 * Builds {@link McpServerTools}.
	 */
	public static final class Builder {

		private final Map<String, ToolCallback> tools = new LinkedHashMap<>();

		private final Map<String, Agent> agents = new LinkedHashMap<>();

		private ToolPermissionPolicy permissionPolicy = ToolPermissionPolicy.ALLOW_ALL;

		private SecretResolver secretResolver = SecretResolver.NONE;

		private KeyValueStore store = new InMemoryKeyValueStore();

		private Duration toolTimeout = AgentBuilder.DEFAULT_TOOL_TIMEOUT;

		private McpJsonMapper jsonMapper = new JacksonMcpJsonMapper(AgentJson.mapper());

		private Auditor auditor = Auditor.NONE;

		private Builder() {
		}

		/**
		 * Offer a tool.
		 * @param tool the tool
		 * @return this builder
		 */
		public Builder tool(ToolCallback tool) {
			Objects.requireNonNull(tool, "'tool' must not be null");
			ToolCallback previous = this.tools.putIfAbsent(tool.spec().name(), tool);
			if (previous != null && previous != tool) {
				throw new ToolDefinitionException("Duplicate tool name '" + tool.spec().name() + "': declared by "
						+ previous.source() + " and by " + tool.source());
			}
			return this;
		}

		/**
		 * Offer tools.
		 * @param tools the tools
		 * @return this builder
		 */
		public Builder tools(Collection<? extends ToolCallback> tools) {
			tools.forEach(this::tool);
			return this;
		}

		/**
		 * Offer an agent, as a tool named after it.
		 * @param agent the agent
		 * @return this builder
		 */
		public Builder agent(Agent agent) {
			Objects.requireNonNull(agent, "'agent' must not be null");
			Agent previous = this.agents.putIfAbsent(agent.name(), agent);
			if (previous != null && previous != agent) {
				throw new ToolDefinitionException("Two agents are named '" + agent.name() + "'");
			}
			return this;
		}

		/**
		 * Offer agents, each as a tool named after it.
		 * @param agents the agents
		 * @return this builder
		 */
		public Builder agents(Collection<? extends Agent> agents) {
			agents.forEach(this::agent);
			return this;
		}

		/**
		 * Set the policy that decides whether a tool call may run, asked with the agent
		 * name {@value McpServerTools#CALLER}. Agents apply their own policies to the
		 * tools they call.
		 * @param permissionPolicy the policy; allows every call by default
		 * @return this builder
		 */
		public Builder permissionPolicy(ToolPermissionPolicy permissionPolicy) {
			this.permissionPolicy = Objects.requireNonNull(permissionPolicy, "'permissionPolicy' must not be null");
			return this;
		}

		/**
		 * Set where secret references in the eligible arguments of a tool call are
		 * resolved.
		 * @param secretResolver the resolver; resolves nothing by default
		 * @return this builder
		 */
		public Builder secretResolver(SecretResolver secretResolver) {
			this.secretResolver = Objects.requireNonNull(secretResolver, "'secretResolver' must not be null");
			return this;
		}

		/**
		 * Set the store behind the tools' session and long-term memory.
		 * @param store the store; a new in-memory store by default
		 * @return this builder
		 */
		public Builder store(KeyValueStore store) {
			this.store = Objects.requireNonNull(store, "'store' must not be null");
			return this;
		}

		/**
		 * Set how long a tool without a timeout of its own may run. Agents are bounded by
		 * their own turn timeout.
		 * @param toolTimeout the timeout; {@link AgentBuilder#DEFAULT_TOOL_TIMEOUT} by
		 * default
		 * @return this builder
		 */
		public Builder toolTimeout(Duration toolTimeout) {
			Objects.requireNonNull(toolTimeout, "'toolTimeout' must not be null");
			if (toolTimeout.isNegative() || toolTimeout.isZero()) {
				throw new IllegalArgumentException("'toolTimeout' must be positive, was " + toolTimeout);
			}
			this.toolTimeout = toolTimeout;
			return this;
		}

		/**
		 * Set the auditor told every tool call over MCP, as an agent's are: a call that ran
		 * or failed ({@code TOOL_CALL}), one the permission policy refused
		 * ({@code PERMISSION_DENIED}), under the agent name {@value McpServerTools#CALLER}
		 * and the MCP session. Agents offered as tools audit their own turns.
		 * @param auditor the auditor; none by default
		 * @return this builder
		 */
		public Builder auditor(Auditor auditor) {
			this.auditor = Objects.requireNonNull(auditor, "'auditor' must not be null");
			return this;
		}

		/**
		 * Set the mapper that reads the tools' schemas into the SDK's types.
		 * @param jsonMapper the mapper; Jackson 3 with {@link AgentJson}'s settings by
		 * default
		 * @return this builder
		 */
		public Builder jsonMapper(McpJsonMapper jsonMapper) {
			this.jsonMapper = Objects.requireNonNull(jsonMapper, "'jsonMapper' must not be null");
			return this;
		}

		/**
		 * Build the tools.
		 * @return the tools
		 * @throws ToolDefinitionException if a tool and an agent share a name
		 */
		public McpServerTools build() {
			for (String name : this.agents.keySet()) {
				ToolCallback tool = this.tools.get(name);
				if (tool != null) {
					throw new ToolDefinitionException("The agent '" + name + "' and the tool declared by "
							+ tool.source() + " would both be the MCP tool '" + name + "'");
				}
			}
			CallSettings settings = new CallSettings(this.permissionPolicy, this.secretResolver, this.store,
					this.toolTimeout, this.auditor);
			List<AsyncToolSpecification> specifications = new ArrayList<>();
			for (ToolCallback tool : this.tools.values()) {
				specifications.add(new AsyncToolSpecification(ExposedTool.describe(tool, this.jsonMapper),
						new ExposedTool(tool, settings)));
			}
			for (Agent agent : this.agents.values()) {
				specifications.add(new AsyncToolSpecification(ExposedAgent.describe(agent, this.jsonMapper),
						new ExposedAgent(agent)));
			}
			return new McpServerTools(specifications);
		}

	}

}
