package dev.agcore.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.audit.Auditor;
import dev.agcore.context.ContextCapture;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.memory.SessionMode;
import dev.agcore.memory.window.ContextWindow;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.MiddlewareChain;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ModelAdapter;
import dev.agcore.model.ModelAdapters;
import dev.agcore.model.ToolCallFormat;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.AgentObservations;
import dev.agcore.retrieval.Retriever;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.ToolSource;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.secret.SecretResolver;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Builds an {@link Agent}. Mutable and not thread-safe; the agent it builds is immutable.
 */
public final class AgentBuilder {

	/** Default bound on model calls per turn. */
	public static final int DEFAULT_MAX_ITERATIONS = 10;

	/** Default time a tool may run. */
	public static final Duration DEFAULT_TOOL_TIMEOUT = Duration.ofSeconds(30);

	/** Default bound on the time one turn may run. */
	public static final Duration DEFAULT_TURN_TIMEOUT = Duration.ofMinutes(5);

	/** Default cap on the length of a tool result sent to the model, in characters (64 Ki). */
	/** The most sources the retrieval QA runner gives the model unless told otherwise. */
	public static final int DEFAULT_RETRIEVAL_TOP_K = 5;

	/** The least score of a source the retrieval QA runner keeps unless told otherwise. */
	public static final double DEFAULT_RETRIEVAL_MIN_SCORE = 0.1;

	public static final int DEFAULT_MAX_TOOL_RESULT_LENGTH = ToolCallExecutor.DEFAULT_MAX_RESULT_LENGTH;

	private String name = "agent";

	private @Nullable ChatModel model;

	private String systemPrompt = "";

	private @Nullable SystemPromptTemplate systemPromptTemplate;

	private String basePrompt = "";

	private EnvironmentContext environment = EnvironmentContext.NONE;

	private Clock clock = Clock.systemUTC();

	private final List<ToolCallback> tools = new ArrayList<>();

	private @Nullable ToolRegistry toolRegistry;

	private ToolScope toolScope = ToolScope.none();

	private final List<ToolCallExecutor.ScopedSource> toolSources = new ArrayList<>();

	private int maxToolResultLength = DEFAULT_MAX_TOOL_RESULT_LENGTH;

	private ToolPermissionPolicy permissionPolicy = ToolPermissionPolicy.ALLOW_ALL;

	private SecretResolver secretResolver = SecretResolver.NONE;

	private Auditor auditor = Auditor.NONE;

	private CallerResolver callers = CallerResolver.NONE;

	private UntrustedContent untrustedContent = UntrustedContent.DISABLED;

	private @Nullable KeyValueStore keyValueStore;

	private int maxIterations = DEFAULT_MAX_ITERATIONS;

	private Duration toolTimeout = DEFAULT_TOOL_TIMEOUT;

	private Duration turnTimeout = DEFAULT_TURN_TIMEOUT;

	private boolean sessionContext = true;

	private SessionMode sessionMode = SessionMode.SHARED;

	private int maxToolCallsPerResponse = ToolBounds.DEFAULT_MAX_CALLS_PER_RESPONSE;

	private int maxParallelToolCalls = ToolBounds.DEFAULT_MAX_PARALLEL_CALLS;

	private Scheduler toolScheduler = Schedulers.boundedElastic();

	private ContextCapture contextCapture = ContextCapture.detect();

	private ChatOptions options = ChatOptions.DEFAULTS;

	private @Nullable ConversationStore store;

	private AgentMetrics metrics = AgentMetrics.NOOP;

	private AgentObservations observations = AgentObservations.NOOP;

	private final List<TurnSummaryListener> turnSummaryListeners = new ArrayList<>();

	private ContextWindow contextWindow = ContextWindow.full();

	private final List<AgentMiddleware> middleware = new ArrayList<>();

	private Map<String, ChatModel> models = Map.of();

	private List<ModelAdapter> modelAdapters = ModelAdapters.builtIns();

	private ToolCallFormat toolCallFormat = ToolCallFormat.AUTO;

	private Runner runner = Runner.REACT;

	private @Nullable Runner fallbackRunner;

	private @Nullable Retriever retriever;

	private int retrievalTopK = DEFAULT_RETRIEVAL_TOP_K;

	private double retrievalMinScore = DEFAULT_RETRIEVAL_MIN_SCORE;

	private Map<String, String> runnerCommands = Map.of();

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

	/**
	 * Make the agent's system prompt a template, rendered for every model call; it takes
	 * the place of {@link #systemPrompt(String)}.
	 * @param template the template and the agent's own variables, or {@code null} for none
	 * @return this builder
	 */
	public AgentBuilder systemPrompt(@Nullable SystemPromptTemplate template) {
		this.systemPromptTemplate = template;
		return this;
	}

	/**
	 * Set the base layer of the system prompt, before the agent's own prompt: text shared
	 * by several agents, such as the company's rules.
	 * @param basePrompt the text, or {@code null} for none
	 * @return this builder
	 */
	public AgentBuilder basePrompt(@Nullable String basePrompt) {
		this.basePrompt = (basePrompt != null) ? basePrompt : "";
		return this;
	}

	/**
	 * Set the environment layer of the system prompt, after the agent's own prompt:
	 * today's date, the user's locale, configured facts. None by default.
	 * @param environment what to show
	 * @return this builder
	 */
	public AgentBuilder environment(EnvironmentContext environment) {
		this.environment = Objects.requireNonNull(environment, "'environment' must not be null");
		return this;
	}

	/**
	 * Set the clock the environment layer reads today's date from. The system clock by
	 * default.
	 * @param clock the clock
	 * @return this builder
	 */
	public AgentBuilder clock(Clock clock) {
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
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

	/**
	 * Give the agent the tools of a registry that are in a scope. Tools not in scope are
	 * never sent to the model; if the model calls one anyway it is told the tool is not
	 * available to this agent.
	 * @param registry all tools of the application
	 * @param scope the names, globs and {@code group:} entries the agent may use
	 * @return this builder
	 * @throws dev.agcore.tool.ToolDefinitionException (on {@link #build()}) if the scope
	 * names a tool the registry does not have
	 */
	public AgentBuilder tools(ToolRegistry registry, ToolScope scope) {
		this.toolRegistry = Objects.requireNonNull(registry, "'registry' must not be null");
		this.toolScope = Objects.requireNonNull(scope, "'scope' must not be null");
		return this;
	}

	/**
	 * Give the agent the tools of a source that are in a scope, such as those of MCP
	 * servers. The agent asks the source on every model call, so tools that appear or go
	 * away while the application runs are seen on the next call. A tool of the agent's own
	 * with the same name wins.
	 * @param source the tools that come and go
	 * @param scope which of them the agent may use: names, globs, {@code group:} and
	 * {@code mcp:server/tool} entries
	 * @return this builder
	 */
	public AgentBuilder toolSource(ToolSource source, ToolScope scope) {
		Objects.requireNonNull(source, "'source' must not be null");
		Objects.requireNonNull(scope, "'scope' must not be null");
		this.toolSources.add(new ToolCallExecutor.ScopedSource(source, scope));
		return this;
	}

	/**
	 * Set the permission policy asked before each tool call. Allows every call by default.
	 * @param permissionPolicy the policy, e.g. {@link dev.agcore.tool.permission.ToolPermissionRules}
	 * @return this builder
	 */
	public AgentBuilder permissionPolicy(ToolPermissionPolicy permissionPolicy) {
		this.permissionPolicy = Objects.requireNonNull(permissionPolicy, "'permissionPolicy' must not be null");
		return this;
	}

	/**
	 * Set where the values of {@code <secret_ref:NAME>} placeholders come from. None by
	 * default ({@link SecretResolver#NONE}): a model must not be able to name any
	 * environment variable, so resolving secrets is an explicit choice, e.g.
	 * {@code SecretResolver.of(map)} or a resolver backed by a vault.
	 * @param secretResolver the resolver
	 * @return this builder
	 */
	public AgentBuilder secretResolver(SecretResolver secretResolver) {
		this.secretResolver = Objects.requireNonNull(secretResolver, "'secretResolver' must not be null");
		return this;
	}

	/**
	 * Set who is told every tool call, approval decision and permission denial of the
	 * agent, redacted ({@link Auditor}). None by default.
	 * @param auditor the auditor, e.g. {@code Auditor.of(listener)}
	 * @return this builder
	 */
	public AgentBuilder auditor(Auditor auditor) {
		this.auditor = Objects.requireNonNull(auditor, "'auditor' must not be null");
		return this;
	}

	/**
	 * Set who the caller of a turn is when its Reactor context holds no
	 * {@link dev.agcore.AgentPrincipal}: every turn and every read of a session is then
	 * checked against the session's owner ({@link SessionAccess}). The starter sets one
	 * reading Spring Security's contexts when Spring Security is on the class path.
	 * @param callers the resolver; {@link CallerResolver#NONE} (the default) knows no
	 * caller, so only a principal put in the context is one
	 * @return this builder
	 */
	public AgentBuilder callers(CallerResolver callers) {
		this.callers = Objects.requireNonNull(callers, "'callers' must not be null");
		return this;
	}

	/**
	 * Set how tool results and retrieved documents are marked as untrusted in what the
	 * model is sent ({@link UntrustedContent}). Off by default here; the Spring Boot
	 * starter switches it on.
	 * @param untrustedContent the marking, or {@link UntrustedContent#DISABLED}
	 * @return this builder
	 */
	public AgentBuilder untrustedContent(UntrustedContent untrustedContent) {
		this.untrustedContent = Objects.requireNonNull(untrustedContent, "'untrustedContent' must not be null");
		return this;
	}

	/**
	 * Set the store behind the tools' session memory and long-term memory. A new
	 * in-memory store by default.
	 * @param store the store
	 * @return this builder
	 */
	public AgentBuilder store(KeyValueStore store) {
		this.keyValueStore = Objects.requireNonNull(store, "'store' must not be null");
		return this;
	}

	/**
	 * Set the longest tool result sent to the model, in characters; longer results are
	 * cut, with a note saying so and how long they were.
	 * @param maxToolResultLength the bound, {@value #DEFAULT_MAX_TOOL_RESULT_LENGTH} by
	 * default
	 * @return this builder
	 */
	public AgentBuilder maxToolResultLength(int maxToolResultLength) {
		if (maxToolResultLength < 1) {
			throw new IllegalArgumentException(
					"'maxToolResultLength' must be at least 1, was " + maxToolResultLength);
		}
		this.maxToolResultLength = maxToolResultLength;
		return this;
	}

	public AgentBuilder maxIterations(int maxIterations) {
		if (maxIterations < 1) {
			throw new IllegalArgumentException("'maxIterations' must be at least 1, was " + maxIterations);
		}
		this.maxIterations = maxIterations;
		return this;
	}

	/**
	 * How many tool calls of one model response run; the rest are answered with an error
	 * result and never run. Default 32.
	 * @param maxToolCallsPerResponse at least 1
	 * @return this builder
	 */
	public AgentBuilder maxToolCallsPerResponse(int maxToolCallsPerResponse) {
		ToolBounds.atLeastOne("maxToolCallsPerResponse", maxToolCallsPerResponse);
		this.maxToolCallsPerResponse = maxToolCallsPerResponse;
		return this;
	}

	/**
	 * How many tool calls of one model response run at the same time. Default 8.
	 * @param maxParallelToolCalls at least 1
	 * @return this builder
	 */
	public AgentBuilder maxParallelToolCalls(int maxParallelToolCalls) {
		ToolBounds.atLeastOne("maxParallelToolCalls", maxParallelToolCalls);
		this.maxParallelToolCalls = maxParallelToolCalls;
		return this;
	}

	/**
	 * Where tool calls run. Tools are synchronous code that may block, so they never run
	 * on an event loop nor on the caller's thread. Default: Reactor's bounded-elastic
	 * scheduler; on Java 21 a scheduler over virtual threads
	 * ({@code Schedulers.fromExecutorService(Executors.newVirtualThreadPerTaskExecutor())})
	 * also fits.
	 * @param toolScheduler a scheduler whose threads may block
	 * @return this builder
	 */
	public AgentBuilder toolScheduler(Scheduler toolScheduler) {
		this.toolScheduler = Objects.requireNonNull(toolScheduler, "'toolScheduler' must not be null");
		return this;
	}

	/**
	 * What of the caller's context reaches the threads where the agent's tools, hooks and
	 * sub-agents run. Default: {@link ContextCapture#detect()}, every
	 * {@code ThreadLocalAccessor} of Micrometer's global {@code ContextRegistry} when
	 * context-propagation is on the class path (Spring Security's context, the current
	 * observation, your own), else nothing. The MDC, with the keys {@code agent},
	 * {@code session}, {@code turn} and {@code run}, goes along in any case.
	 * @param contextCapture the capture; {@link ContextCapture#NONE} for none
	 * @return this builder
	 */
	public AgentBuilder contextCapture(ContextCapture contextCapture) {
		this.contextCapture = Objects.requireNonNull(contextCapture, "'contextCapture' must not be null");
		return this;
	}

	/**
	 * Set how long one turn may run, from loading the conversation to its last model call
	 * or tool, so a model that never answers cannot hold a caller for retries times
	 * timeouts times iterations. A turn past it fails with a {@link TurnTimeoutException}
	 * and stores nothing (a resumed turn can be resumed again); storing a turn that
	 * finished in time is never cut short.
	 * @param turnTimeout a positive duration, 5 minutes by default
	 * @return this builder
	 */
	public AgentBuilder turnTimeout(Duration turnTimeout) {
		this.turnTimeout = positive(turnTimeout, "turnTimeout");
		return this;
	}

	/**
	 * Whether the session's memory is appended to the system prompt as a
	 * {@code <session-context>} block when it is not empty; read once at the start of
	 * each turn.
	 * @param sessionContext true by default
	 * @return this builder
	 */
	public AgentBuilder sessionContext(boolean sessionContext) {
		this.sessionContext = sessionContext;
		return this;
	}

	/**
	 * Set whose conversation the agent's turns read and write when several agents take
	 * turns in one session: the session's, shared with the others (the default), or its
	 * own, {@link SessionMode#ISOLATED isolated}, with the session's memory (in the
	 * {@code <session-context>} block, see {@link #sessionContext(boolean)}) as the bridge.
	 * @param sessionMode the mode
	 * @return this builder
	 */
	public AgentBuilder sessionMode(SessionMode sessionMode) {
		this.sessionMode = Objects.requireNonNull(sessionMode, "'sessionMode' must not be null");
		return this;
	}

	public AgentBuilder toolTimeout(Duration toolTimeout) {
		this.toolTimeout = positive(toolTimeout, "toolTimeout");
		return this;
	}

	/**
	 * Set the options of every model call of the agent; a request's own options
	 * ({@link AgentRequest#options()}) take precedence.
	 * @param options the options
	 * @return this builder
	 */
	public AgentBuilder options(ChatOptions options) {
		this.options = Objects.requireNonNull(options, "'options' must not be null");
		return this;
	}

	/**
	 * Set the other models a request may choose by name, with the {@code model} of its
	 * options ({@link AgentRequest#withOptions}). The chosen model is called with its own
	 * model name (the name is the key here, not sent). A request naming a model not in
	 * this map fails with {@link ModelNotAllowedException} before any model call. None by
	 * default: requests use the agent's {@link #model(ChatModel) model}.
	 * @param models the models, by the name requests use
	 * @return this builder
	 */
	public AgentBuilder models(Map<String, ? extends ChatModel> models) {
		Objects.requireNonNull(models, "'models' must not be null");
		this.models = Map.copyOf(models);
		return this;
	}

	/**
	 * Set the adapters applied to each model request before it is sent, replacing the
	 * built-in ones ({@link ModelAdapters#builtIns()}, the default). Pass an empty list
	 * for none; add to the built-ins by passing them first.
	 * @param modelAdapters the adapters, in the order they apply
	 * @return this builder
	 */
	public AgentBuilder modelAdapters(List<? extends ModelAdapter> modelAdapters) {
		Objects.requireNonNull(modelAdapters, "'modelAdapters' must not be null");
		this.modelAdapters = List.copyOf(modelAdapters);
		return this;
	}

	/**
	 * Set how tools are offered to the model and its calls read:
	 * {@link ToolCallFormat#AUTO} (the default) uses the XML format for a model that does
	 * not report {@link dev.agcore.model.ModelCapability#TOOLS} and native tool calling
	 * for every other; {@link ToolCallFormat#XML} always describes the tools in the system
	 * prompt and parses {@code <use_tool>} blocks from the answer;
	 * {@link ToolCallFormat#NATIVE} always sends them natively. Decided per model call,
	 * so a model chosen per request gets the format it needs.
	 * @param toolCallFormat the format
	 * @return this builder
	 */
	public AgentBuilder toolCallFormat(ToolCallFormat toolCallFormat) {
		this.toolCallFormat = Objects.requireNonNull(toolCallFormat, "'toolCallFormat' must not be null");
		return this;
	}

	/**
	 * Shorthand for {@link #toolCallFormat(ToolCallFormat)}: {@code true} for
	 * {@link ToolCallFormat#XML}, {@code false} for {@link ToolCallFormat#AUTO}.
	 * @param xmlToolCalls whether every model call uses the XML format
	 * @return this builder
	 */
	public AgentBuilder xmlToolCalls(boolean xmlToolCalls) {
		return toolCallFormat(xmlToolCalls ? ToolCallFormat.XML : ToolCallFormat.AUTO);
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
	 * Add a listener told about each finished turn of the agent (counts, tokens, cost,
	 * duration, outcome; never content).
	 * @param listener the listener
	 * @return this builder
	 */
	public AgentBuilder turnSummaryListener(TurnSummaryListener listener) {
		this.turnSummaryListeners.add(Objects.requireNonNull(listener, "'listener' must not be null"));
		return this;
	}

	/**
	 * Add listeners told about each finished turn of the agent.
	 * @param listeners the listeners
	 * @return this builder
	 * @see #turnSummaryListener(TurnSummaryListener)
	 */
	public AgentBuilder turnSummaryListeners(Collection<? extends TurnSummaryListener> listeners) {
		listeners.forEach(this::turnSummaryListener);
		return this;
	}

	/**
	 * Observe the agent's turns, model calls and tool calls (spans and, with a meter
	 * handler, timers) with the given registry and the default conventions. None by
	 * default.
	 * @param registry the observation registry
	 * @return this builder
	 */
	public AgentBuilder observationRegistry(ObservationRegistry registry) {
		return observations(AgentObservations.builder(registry).build());
	}

	/**
	 * Observe the agent's turns, model calls and tool calls: registry, conventions and
	 * content capture. {@link AgentObservations#NOOP} by default.
	 * @param observations the observations
	 * @return this builder
	 */
	public AgentBuilder observations(AgentObservations observations) {
		this.observations = Objects.requireNonNull(observations, "'observations' must not be null");
		return this;
	}

	/**
	 * Set what the model sees of the conversation: the whole of it (the default), the
	 * last messages, or the last tokens. The store keeps every message; the window only
	 * shapes each model request, and never sends a tool result without its call.
	 * @param contextWindow the window, e.g. {@code ContextWindow.lastMessages(50)}
	 * @return this builder
	 */
	public AgentBuilder contextWindow(ContextWindow contextWindow) {
		this.contextWindow = Objects.requireNonNull(contextWindow, "'contextWindow' must not be null");
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
	 * Set how the agent runs a turn; {@link Runner#REACT} (the tool loop) by default.
	 * @param runner the runner
	 * @return this builder
	 * @see #retriever(Retriever)
	 * @see #fallbackRunner(Runner)
	 */
	public AgentBuilder runner(Runner runner) {
		this.runner = Objects.requireNonNull(runner, "'runner' must not be null");
		return this;
	}

	/**
	 * Set the runner a ReAct turn starts over with when the loop fails or reaches
	 * max-iterations; only {@link Runner#PLANNER}, and only with the react runner.
	 * @param fallbackRunner the fallback, or {@code null} for none (the default)
	 * @return this builder
	 */
	public AgentBuilder fallbackRunner(@Nullable Runner fallbackRunner) {
		this.fallbackRunner = fallbackRunner;
		return this;
	}

	/**
	 * Set what the retrieval QA runner retrieves from; required for that runner.
	 * @param retriever the retriever
	 * @return this builder
	 */
	public AgentBuilder retriever(@Nullable Retriever retriever) {
		this.retriever = retriever;
		return this;
	}

	/**
	 * Set the most sources the retrieval QA runner gives the model.
	 * @param topK at least 1; {@value #DEFAULT_RETRIEVAL_TOP_K} by default
	 * @return this builder
	 */
	public AgentBuilder retrievalTopK(int topK) {
		if (topK < 1) {
			throw new IllegalArgumentException("'retrievalTopK' must be at least 1, was " + topK);
		}
		this.retrievalTopK = topK;
		return this;
	}

	/**
	 * Set the least score a retrieved source needs for the retrieval QA runner to use it;
	 * when none has it, the runner answers {@link Runner#NOTHING_FOUND} without calling
	 * the model.
	 * @param minScore the least score; {@value #DEFAULT_RETRIEVAL_MIN_SCORE} by default
	 * @return this builder
	 */
	public AgentBuilder retrievalMinScore(double minScore) {
		if (Double.isNaN(minScore)) {
			throw new IllegalArgumentException("'retrievalMinScore' must be a number");
		}
		this.retrievalMinScore = minScore;
		return this;
	}

	/**
	 * Set the planner runner's {@code @command} aliases: {@code @web} in a user message
	 * with {@code web -> search_web} forces the tool {@code search_web}. A tool's own name
	 * works as a command without an alias.
	 * @param commands command (without {@code @}) to tool name
	 * @return this builder
	 */
	public AgentBuilder runnerCommands(Map<String, String> commands) {
		this.runnerCommands = Map.copyOf(commands);
		return this;
	}

	/**
	 * Build the agent.
	 * @return the agent
	 * @throws IllegalStateException if no model was set, the retrieval QA runner has no
	 * retriever, or a fallback runner is set other than planner for react
	 * @throws dev.agcore.tool.ToolDefinitionException if two tools share a name, or the
	 * tool scope names a tool the registry does not have
	 */
	public Agent build() {
		if (this.model == null) {
			throw new IllegalStateException("'model' must be set for agent '" + this.name + "'");
		}
		RunnerSettings runners;
		try {
			runners = new RunnerSettings(this.runner, this.fallbackRunner, this.retriever, this.retrievalTopK,
					this.retrievalMinScore, this.runnerCommands);
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException("Agent '" + this.name + "': " + ex.getMessage(), ex);
		}
		ConversationStore conversationStore = this.sessionMode
			.conversations((this.store != null) ? this.store : new InMemoryConversationStore(), this.name);
		List<ToolCallback> tools = new ArrayList<>(this.tools);
		if (this.toolRegistry != null) {
			tools.addAll(this.toolScope.select(this.toolRegistry));
		}
		for (AgentMiddleware each : this.middleware) {
			tools.addAll(each.tools());
		}
		ToolCallExecutor executor = new ToolCallExecutor(this.name, tools, this.toolSources, this.toolRegistry,
				this.permissionPolicy, this.secretResolver, this.maxToolResultLength, this.metrics, this.observations,
				this.auditor);
		KeyValueStore keyValueStore = (this.keyValueStore != null) ? this.keyValueStore : new InMemoryKeyValueStore();
		ToolRunner toolRunner = new ToolRunner(this.name, executor, this.toolTimeout, keyValueStore,
				new ToolBounds(this.maxToolCallsPerResponse, this.maxParallelToolCalls), this.toolScheduler);
		PromptSettings prompt = new PromptSettings(this.systemPrompt, this.systemPromptTemplate,
				new SystemPromptLayers(this.basePrompt, this.environment, this.clock), this.sessionContext,
				this.untrustedContent);
		return new DefaultAgent(this.name, this.model, prompt, toolRunner, this.maxIterations, this.options,
				conversationStore, MiddlewareChain.of(this.middleware), this.metrics, this.observations, this.turnTimeout,
				this.contextWindow, this.models, this.modelAdapters, this.toolCallFormat, runners,
				new TurnLogSettings(this.observations.contentCapture(), turnSummaryListener()), this.contextCapture,
				new TurnAccess(this.name, this.callers, SessionAccess.of(SessionOwners.of(keyValueStore)), this.auditor));
	}

	private @Nullable TurnSummaryListener turnSummaryListener() {
		List<TurnSummaryListener> listeners = List.copyOf(this.turnSummaryListeners);
		if (listeners.isEmpty()) {
			return null;
		}
		return (listeners.size() == 1) ? listeners.get(0)
				: (summary) -> listeners.forEach((listener) -> listener.onTurnFinished(summary));
	}

	private static Duration positive(Duration value, String name) {
		Objects.requireNonNull(value, "'" + name + "' must not be null");
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException("'" + name + "' must be positive, was " + value);
		}
		return value;
	}

}
