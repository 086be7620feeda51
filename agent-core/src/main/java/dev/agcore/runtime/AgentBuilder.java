package dev.agcore.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.MiddlewareChain;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.tool.ToolCallback;
import org.jspecify.annotations.Nullable;

/**
 * Builds an {@link Agent}. Mutable and not thread-safe; the agent it builds is immutable.
 */
public final class AgentBuilder {

	/** Default bound on model calls per turn. */
	public static final int DEFAULT_MAX_ITERATIONS = 10;

	/** Default time a tool may run. */
	public static final Duration DEFAULT_TOOL_TIMEOUT = Duration.ofSeconds(30);

	private String name = "agent";

	private @Nullable ChatModel model;

	private String systemPrompt = "";

	private final List<ToolCallback> tools = new ArrayList<>();

	private int maxIterations = DEFAULT_MAX_ITERATIONS;

	private Duration toolTimeout = DEFAULT_TOOL_TIMEOUT;

	private ChatOptions options = ChatOptions.DEFAULTS;

	private @Nullable ConversationStore store;

	private AgentMetrics metrics = AgentMetrics.NOOP;

	private final List<AgentMiddleware> middleware = new ArrayList<>();

	AgentBuilder() {
	}

	public AgentBuilder name(String name) {
		this.name = Objects.requireNonNull(name, "'name' must not be null");
		return this;
	}

	public AgentBuilder model(ChatModel model) {
		this.model = Objects.requireNonNull(model, "'model' must not be null");
		return this;
	}

	public AgentBuilder systemPrompt(@Nullable String systemPrompt) {
		this.systemPrompt = (systemPrompt != null) ? systemPrompt : "";
		return this;
	}

	public AgentBuilder tool(ToolCallback tool) {
		this.tools.add(Objects.requireNonNull(tool, "'tool' must not be null"));
		return this;
	}

	public AgentBuilder tools(Collection<? extends ToolCallback> tools) {
		tools.forEach(this::tool);
		return this;
	}

	public AgentBuilder maxIterations(int maxIterations) {
		if (maxIterations < 1) {
			throw new IllegalArgumentException("'maxIterations' must be at least 1, was " + maxIterations);
		}
		this.maxIterations = maxIterations;
		return this;
	}

	public AgentBuilder toolTimeout(Duration toolTimeout) {
		Objects.requireNonNull(toolTimeout, "'toolTimeout' must not be null");
		if (toolTimeout.isNegative() || toolTimeout.isZero()) {
			throw new IllegalArgumentException("'toolTimeout' must be positive, was " + toolTimeout);
		}
		this.toolTimeout = toolTimeout;
		return this;
	}

	public AgentBuilder options(ChatOptions options) {
		this.options = Objects.requireNonNull(options, "'options' must not be null");
		return this;
	}

	public AgentBuilder conversationStore(ConversationStore store) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		return this;
	}

	public AgentBuilder metrics(AgentMetrics metrics) {
		this.metrics = Objects.requireNonNull(metrics, "'metrics' must not be null");
		return this;
	}

	/**
	 * Add a middleware. Middleware run in the order added: {@code before*} hooks first to
	 * last, {@code after*} hooks last to first, wrappers with the first outermost.
	 * @param middleware the middleware
	 * @return this builder
	 */
	public AgentBuilder middleware(AgentMiddleware middleware) {
		this.middleware.add(Objects.requireNonNull(middleware, "'middleware' must not be null"));
		return this;
	}

	public AgentBuilder middleware(Collection<? extends AgentMiddleware> middleware) {
		middleware.forEach(this::middleware);
		return this;
	}

	/**
	 * Build the agent.
	 * @return the agent
	 * @throws IllegalStateException if no model was set
	 * @throws dev.agcore.tool.ToolDefinitionException if two tools share a name
	 */
	public Agent build() {
		if (this.model == null) {
			throw new IllegalStateException("'model' must be set for agent '" + this.name + "'");
		}
		ConversationStore conversationStore = (this.store != null) ? this.store : new InMemoryConversationStore();
		ToolRunner toolRunner = new ToolRunner(this.name, this.tools, this.toolTimeout, this.metrics);
		return new DefaultAgent(this.name, this.model, this.systemPrompt, toolRunner, this.maxIterations,
				this.options, conversationStore, MiddlewareChain.of(this.middleware), this.metrics);
	}

}
