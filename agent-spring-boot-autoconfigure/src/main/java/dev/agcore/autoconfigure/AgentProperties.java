package dev.agcore.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.memory.AgentMemoryProperties;
import dev.agcore.autoconfigure.middleware.MiddlewareProperties;
import dev.agcore.autoconfigure.tool.ToolPermissionProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration properties for agents: model providers, agents, retries and the web
 * endpoint.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent")
public class AgentProperties {

	/**
	 * Model providers, by name. Agents refer to a provider by this name.
	 */
	private final Map<String, Provider> providers = new LinkedHashMap<>();

	/**
	 * Agents, by name. Each one is registered as a bean of that name. When none is
	 * configured and exactly one model is available, a default agent named "assistant"
	 * with all tools is created.
	 */
	private final Map<String, AgentSpec> agents = new LinkedHashMap<>();

	/**
	 * Named models, by name: a provider, a model and its options. Agents refer to a model
	 * by this name ("model: fast"); provider names and ChatModel bean names work too.
	 */
	private final Map<String, ModelSpec> models = new LinkedHashMap<>();

	/**
	 * Base layer of every configured agent's system prompt, before the agent's own prompt:
	 * text all agents share, such as the company's rules. An agent's base-system-prompt
	 * replaces it.
	 */
	private @Nullable String baseSystemPrompt;

	/**
	 * How deep agents run as tools (agent.agents.<name>.agents) may nest below a turn a
	 * caller started: 1 lets an agent's sub-agents run but not theirs. A call that would
	 * go deeper is answered with an error naming this limit.
	 */
	private int maxSubAgentDepth = 3;

	private final Retry retry = new Retry();

	private final Web web = new Web();

	public int getMaxSubAgentDepth() {
		return this.maxSubAgentDepth;
	}

	public void setMaxSubAgentDepth(int maxSubAgentDepth) {
		this.maxSubAgentDepth = maxSubAgentDepth;
	}

	public @Nullable String getBaseSystemPrompt() {
		return this.baseSystemPrompt;
	}

	public void setBaseSystemPrompt(@Nullable String baseSystemPrompt) {
		this.baseSystemPrompt = baseSystemPrompt;
	}

	private final ModelAdapters modelAdapters = new ModelAdapters();

	public Map<String, Provider> getProviders() {
		return this.providers;
	}

	public Map<String, AgentSpec> getAgents() {
		return this.agents;
	}

	public Map<String, ModelSpec> getModels() {
		return this.models;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Web getWeb() {
		return this.web;
	}

	public ModelAdapters getModelAdapters() {
		return this.modelAdapters;
	}

	/**
	 * Per-model-family adjustments of model requests.
	 */
	public static class ModelAdapters {

		/**
		 * Whether the built-in model adapters apply: no sampling options for reasoning
		 * models, tool-use guidance for models that tend to skip tools, merged system
		 * messages. ModelAdapter beans apply either way, after the built-ins.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * A model provider.
	 */
	public static class Provider {

		/**
		 * Type of the provider. Defaults to the provider's name. "openai" is any server
		 * that implements the OpenAI chat completions API.
		 */
		private @Nullable String type;

		/**
		 * Root URL of the provider's API, such as "https://api.openai.com/v1" or
		 * "http://localhost:11434/v1".
		 */
		private @Nullable String baseUrl;

		/**
		 * API key. Leave empty for servers that need none.
		 */
		private @Nullable String apiKey;

		/**
		 * Model to request, such as "gpt-4o-mini".
		 */
		private @Nullable String model;

		/**
		 * Sampling temperature. Uses the server's default when not set.
		 */
		private @Nullable Double temperature;

		/**
		 * Maximum number of tokens to generate per model call. Uses the server's default
		 * when not set.
		 */
		private @Nullable Integer maxTokens;

		/**
		 * Time to wait for a response, and in a stream for the first and each next data
		 * event (comments and keep-alives do not count).
		 */
		private Duration responseTimeout = Duration.ofSeconds(60);

		/**
		 * Most connections open to this provider's server at once, in a connection pool of
		 * its own, with up to twice as many calls waiting for one. Unset: Reactor Netty's
		 * shared pool (500 per server, a queue of 1,000). Set it above the number of
		 * concurrent calls the application makes to this provider.
		 */
		private @Nullable Integer maxConnections;

		/**
		 * Extra HTTP headers sent with every request, such as an organisation or project
		 * header.
		 */
		private final Map<String, String> headers = new LinkedHashMap<>();

		/**
		 * Extra fields merged into every request body, for server-specific options the
		 * typed properties do not cover.
		 */
		private final Map<String, Object> extraBody = new LinkedHashMap<>();

		/**
		 * API version: "api-version" of Azure OpenAI, "anthropic-version" of Anthropic.
		 * Uses the provider's documented default when not set.
		 */
		private @Nullable String apiVersion;

		/**
		 * Whether to mark the system prompt and tools as cacheable, for providers with
		 * explicit prompt caching (Anthropic "cache_control").
		 */
		private boolean promptCaching;

		/**
		 * How long Ollama keeps the model loaded after a request, such as "5m" or "-1"
		 * for ever. Uses the server's default when not set.
		 */
		private @Nullable String keepAlive;

		/**
		 * Default options of every model of this provider; a named model's options
		 * override them.
		 */
		@NestedConfigurationProperty
		private final ModelOptions options = new ModelOptions();

		/**
		 * Health checking of this provider.
		 */
		private final Health health = new Health();

		public Map<String, String> getHeaders() {
			return this.headers;
		}

		public Map<String, Object> getExtraBody() {
			return this.extraBody;
		}

		public @Nullable String getApiVersion() {
			return this.apiVersion;
		}

		public void setApiVersion(@Nullable String apiVersion) {
			this.apiVersion = apiVersion;
		}

		public boolean isPromptCaching() {
			return this.promptCaching;
		}

		public void setPromptCaching(boolean promptCaching) {
			this.promptCaching = promptCaching;
		}

		public @Nullable String getKeepAlive() {
			return this.keepAlive;
		}

		public void setKeepAlive(@Nullable String keepAlive) {
			this.keepAlive = keepAlive;
		}

		public ModelOptions getOptions() {
			return this.options;
		}

		public Health getHealth() {
			return this.health;
		}

		public @Nullable String getType() {
			return this.type;
		}

		public void setType(@Nullable String type) {
			this.type = type;
		}

		public @Nullable String getBaseUrl() {
			return this.baseUrl;
		}

		public void setBaseUrl(@Nullable String baseUrl) {
			this.baseUrl = baseUrl;
		}

		public @Nullable String getApiKey() {
			return this.apiKey;
		}

		public void setApiKey(@Nullable String apiKey) {
			this.apiKey = apiKey;
		}

		public @Nullable String getModel() {
			return this.model;
		}

		public void setModel(@Nullable String model) {
			this.model = model;
		}

		public @Nullable Double getTemperature() {
			return this.temperature;
		}

		public void setTemperature(@Nullable Double temperature) {
			this.temperature = temperature;
		}

		public @Nullable Integer getMaxTokens() {
			return this.maxTokens;
		}

		public void setMaxTokens(@Nullable Integer maxTokens) {
			this.maxTokens = maxTokens;
		}

		public Duration getResponseTimeout() {
			return this.responseTimeout;
		}

		public void setResponseTimeout(Duration responseTimeout) {
			this.responseTimeout = responseTimeout;
		}

		public @Nullable Integer getMaxConnections() {
			return this.maxConnections;
		}

		public void setMaxConnections(@Nullable Integer maxConnections) {
			this.maxConnections = maxConnections;
		}

	}

	/**
	 * Health checking of a provider.
	 */
	public static class Health {

		/**
		 * Whether the Actuator health contributor "agents" (its part "models") checks that the provider
		 * is reachable (by listing models, spending no tokens where the API allows), with
		 * a timeout of 10 seconds.
		 */
		private boolean enabled;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * A named model: a provider, the model to request and its options.
	 */
	public static class ModelSpec {

		/**
		 * Name of the provider under agent.providers, or of a ChatModel bean, that serves
		 * this model. May be omitted when exactly one provider is configured.
		 */
		private @Nullable String provider;

		/**
		 * Model to request, such as "gpt-4o-mini" or "claude-sonnet-4-5". Defaults to the
		 * provider's model.
		 */
		private @Nullable String model;

		/**
		 * Size of the model's context window, in tokens. Used by memory windows and
		 * compaction when they give no limit of their own.
		 */
		private @Nullable Integer contextWindow;

		/**
		 * Options sent with every call of this model; per-request options override them.
		 */
		@NestedConfigurationProperty
		private final ModelOptions options = new ModelOptions();

		/**
		 * Prices of this model, for the cost of each call and turn.
		 */
		@NestedConfigurationProperty
		private final Price price = new Price();

		public @Nullable String getProvider() {
			return this.provider;
		}

		public void setProvider(@Nullable String provider) {
			this.provider = provider;
		}

		public @Nullable String getModel() {
			return this.model;
		}

		public void setModel(@Nullable String model) {
			this.model = model;
		}

		public @Nullable Integer getContextWindow() {
			return this.contextWindow;
		}

		public void setContextWindow(@Nullable Integer contextWindow) {
			this.contextWindow = contextWindow;
		}

		public ModelOptions getOptions() {
			return this.options;
		}

		public Price getPrice() {
			return this.price;
		}

	}

	/**
	 * Options of model calls; each one not set uses the provider's default.
	 */
	public static class ModelOptions {

		/**
		 * Sampling temperature.
		 */
		private @Nullable Double temperature;

		/**
		 * Nucleus sampling probability mass.
		 */
		private @Nullable Double topP;

		/**
		 * Maximum number of tokens to generate per call.
		 */
		private @Nullable Integer maxTokens;

		/**
		 * Sequences that end the answer.
		 */
		private @Nullable List<String> stop;

		/**
		 * Seed for reproducible sampling, where the provider supports one.
		 */
		private @Nullable Long seed;

		/**
		 * Penalty for tokens by how often they appeared.
		 */
		private @Nullable Double frequencyPenalty;

		/**
		 * Penalty for tokens that appeared at all.
		 */
		private @Nullable Double presencePenalty;

		/**
		 * Reasoning effort of reasoning models: "low", "medium" or "high".
		 */
		private @Nullable String reasoningEffort;

		/**
		 * Token budget for thinking (Anthropic extended thinking, Gemini thinking); 0
		 * turns thinking off where the provider allows.
		 */
		private @Nullable Integer thinkingBudget;

		/**
		 * Time to wait for an answer, instead of the provider's response timeout.
		 */
		private @Nullable Duration timeout;

		public @Nullable Double getTemperature() {
			return this.temperature;
		}

		public void setTemperature(@Nullable Double temperature) {
			this.temperature = temperature;
		}

		public @Nullable Double getTopP() {
			return this.topP;
		}

		public void setTopP(@Nullable Double topP) {
			this.topP = topP;
		}

		public @Nullable Integer getMaxTokens() {
			return this.maxTokens;
		}

		public void setMaxTokens(@Nullable Integer maxTokens) {
			this.maxTokens = maxTokens;
		}

		public @Nullable List<String> getStop() {
			return this.stop;
		}

		public void setStop(@Nullable List<String> stop) {
			this.stop = stop;
		}

		public @Nullable Long getSeed() {
			return this.seed;
		}

		public void setSeed(@Nullable Long seed) {
			this.seed = seed;
		}

		public @Nullable Double getFrequencyPenalty() {
			return this.frequencyPenalty;
		}

		public void setFrequencyPenalty(@Nullable Double frequencyPenalty) {
			this.frequencyPenalty = frequencyPenalty;
		}

		public @Nullable Double getPresencePenalty() {
			return this.presencePenalty;
		}

		public void setPresencePenalty(@Nullable Double presencePenalty) {
			this.presencePenalty = presencePenalty;
		}

		public @Nullable String getReasoningEffort() {
			return this.reasoningEffort;
		}

		public void setReasoningEffort(@Nullable String reasoningEffort) {
			this.reasoningEffort = reasoningEffort;
		}

		public @Nullable Integer getThinkingBudget() {
			return this.thinkingBudget;
		}

		public void setThinkingBudget(@Nullable Integer thinkingBudget) {
			this.thinkingBudget = thinkingBudget;
		}

		public @Nullable Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(@Nullable Duration timeout) {
			this.timeout = timeout;
		}

	}

	/**
	 * Prices of a model, in any one currency per million tokens of each kind.
	 */
	public static class Price {

		/**
		 * Price per million input tokens not read from the cache.
		 */
		private @Nullable Double input;

		/**
		 * Price per million output tokens (reasoning included).
		 */
		private @Nullable Double output;

		/**
		 * Price per million input tokens read from the prompt cache. Defaults to the
		 * input price.
		 */
		private @Nullable Double cachedInput;

		/**
		 * Price per million input tokens written to the prompt cache. Defaults to the
		 * input price.
		 */
		private @Nullable Double cacheWrite;

		public @Nullable Double getInput() {
			return this.input;
		}

		public void setInput(@Nullable Double input) {
			this.input = input;
		}

		public @Nullable Double getOutput() {
			return this.output;
		}

		public void setOutput(@Nullable Double output) {
			this.output = output;
		}

		public @Nullable Double getCachedInput() {
			return this.cachedInput;
		}

		public void setCachedInput(@Nullable Double cachedInput) {
			this.cachedInput = cachedInput;
		}

		public @Nullable Double getCacheWrite() {
			return this.cacheWrite;
		}

		public void setCacheWrite(@Nullable Double cacheWrite) {
			this.cacheWrite = cacheWrite;
		}

	}

	/**
	 * An agent.
	 */
	public static class AgentSpec {

		/**
		 * Model the agent calls: the name of a provider under agent.providers, or the
		 * bean name of a ChatModel bean. May be omitted when exactly one model is
		 * available.
		 */
		private @Nullable String provider;

		/**
		 * Model the agent calls: the name of a model under agent.models, of a provider
		 * under agent.providers, or of a ChatModel bean. Same as "provider", which it
		 * replaces; set only one of them.
		 */
		private @Nullable String model;

		/**
		 * Models tried in order when the agent's model fails with a retryable error
		 * (after its retries), by the same names as "model". Not together with
		 * middleware.model-fallback, which also chooses the failures that fall back.
		 */
		private List<String> fallbackModels = new ArrayList<>();

		/**
		 * Other models a request may ask for by name (its "model" option), besides the
		 * agent's model and fallback models. A request naming any other model is
		 * rejected.
		 */
		private List<String> allowedModels = new ArrayList<>();

		/**
		 * How the agent runs a turn: react (the tool loop, the default), llm (plain chat,
		 * no tools), retrieval-qa (answers from retrieved sources, citing them) or planner
		 * (one call chooses tools, they run, one call answers). See docs/runners.md.
		 */
		private String runner = "react";

		/**
		 * How tools are offered to the model: native (the provider's tool calling), xml
		 * (described in the system prompt, calls parsed from <use_tool> blocks in the
		 * answer) or auto (xml for a model without native tool calling, native for the
		 * others, the default). See docs/runners.md.
		 */
		private String toolCallFormat = "auto";

		/**
		 * Whose conversation the agent's turns read and write when several agents take
		 * turns in one session: shared (the session's, the default; an agent taking over
		 * is told so) or isolated (its own, kept as "<session-id>#<agent>"; the session's
		 * memory in the <session-context> block bridges the agents). See
		 * docs/multi-agent.md.
		 */
		private String sessionMode = "shared";

		/**
		 * Runner a react turn starts over with when the loop fails or reaches
		 * max-iterations; only planner. Empty for none.
		 */
		private @Nullable String fallbackRunner;

		/**
		 * Commands of the planner runner: "@web" in a user message with web=search_web
		 * forces the tool search_web in the planning call. A tool's own name works as a
		 * command without an entry here.
		 */
		private Map<String, String> runnerCommands = new LinkedHashMap<>();

		/**
		 * Settings of the retrieval-qa runner.
		 */
		private final RetrievalQa retrievalQa = new RetrievalQa();

		/**
		 * Plan-and-execute: when enabled, a turn asks a model for a plan of the user's
		 * message and runs its steps as turns of this agent. See docs/plans.md.
		 */
		private final PlanSettings plan = new PlanSettings();

		/**
		 * System prompt sent at the start of every conversation. "mcp:<server>/<prompt>"
		 * uses that prompt of an MCP server of agent.mcp.servers instead, fetched once the
		 * server is connected.
		 */
		private @Nullable String systemPrompt;

		/**
		 * Prompt template the system prompt is rendered from on every model call, by name in
		 * agent.prompts.location, such as support/system. Replaces system-prompt. The
		 * template sees system-prompt-variables, the session's memory as "session", the
		 * request's state as "request", and "agent", "sessionId" and "userId".
		 */
		private @Nullable String systemPromptTemplate;

		/**
		 * Variables of the system prompt template.
		 */
		private Map<String, Object> systemPromptVariables = new LinkedHashMap<>();

		/**
		 * Base layer of this agent's system prompt, instead of agent.base-system-prompt;
		 * empty for none.
		 */
		private @Nullable String baseSystemPrompt;

		/**
		 * Environment layer of the system prompt: date, the user's locale, facts.
		 */
		@NestedConfigurationProperty
		private final AgentEnvironmentProperties environment = new AgentEnvironmentProperties();

		/**
		 * Tools the agent may use: names ("get_weather"), globs ("notes_*"), groups
		 * ("group:notes", by tool category) and tools of MCP servers ("mcp:filesystem",
		 * "mcp:filesystem/read_*", by the server's names). All tools, those of MCP servers
		 * included, when not set; none when empty.
		 */
		private @Nullable List<String> tools;

		/**
		 * Other agents of agent.agents this agent may ask, each offered as a tool named
		 * after it that takes a task and answers with that agent's answer, run in a
		 * session of its own. In addition to the tools of "tools"; no cycles.
		 */
		private List<String> agents = new ArrayList<>();

		/**
		 * What the agent does, told to the agents that have it under "agents" as the
		 * description of its tool. A generic description when not set.
		 */
		private @Nullable String description;

		/**
		 * Roles a caller of the web endpoint needs, any one of them, to use the agent
		 * ("ADMIN" is granted by the authority "ROLE_ADMIN" or "ADMIN"): every route of the
		 * agent answers 404 to other callers and the agent list leaves it out. Open to all
		 * callers when empty.
		 */
		private List<String> roles = new ArrayList<>();

		/**
		 * Which of its tools the agent may call, by permission and by tool name.
		 */
		@NestedConfigurationProperty
		private final ToolPermissionProperties permissions = new ToolPermissionProperties();

		/**
		 * Longest tool result sent to the model, in characters. agent.tools.max-result-length
		 * when not set.
		 */
		private @Nullable Integer maxToolResultLength;

		/**
		 * Maximum number of model calls in one turn.
		 */
		private int maxIterations = 10;

		/**
		 * Maximum number of tool calls of one model response that run; the rest are
		 * answered with an error result and never run.
		 */
		private int maxToolCallsPerResponse = 32;

		/**
		 * Maximum number of tool calls of one model response that run at the same time.
		 */
		private int maxParallelToolCalls = 8;

		/**
		 * Time a tool call may run before it is cancelled.
		 */
		private Duration toolTimeout = Duration.ofSeconds(30);

		/**
		 * Time one turn may run, model calls, retries and tools included, before it fails
		 * with a TurnTimeoutException and stores nothing.
		 */
		private Duration turnTimeout = Duration.ofMinutes(5);

		/**
		 * Middleware of the agent: the middleware beans it uses and the built-ins it
		 * switches on.
		 */
		@NestedConfigurationProperty
		private final MiddlewareProperties middleware = new MiddlewareProperties();

		/**
		 * Memory of the agent: what the model sees of the conversation, how it is compacted,
		 * session memory in the system prompt and the memory tools.
		 */
		@NestedConfigurationProperty
		private final AgentMemoryProperties memory = new AgentMemoryProperties();

		/**
		 * Budget of the agent: turns per minute and tokens per day and month, per principal
		 * or session; what is not set comes from agent.budget.*.
		 */
		@NestedConfigurationProperty
		private final AgentBudgetProperties budget = new AgentBudgetProperties();

		/**
		 * How the agent's tool results and retrieved documents are marked as untrusted for
		 * the model; what is not set comes from agent.untrusted-content.*.
		 */
		@NestedConfigurationProperty
		private final AgentUntrustedContentProperties untrustedContent = new AgentUntrustedContentProperties();

		public @Nullable String getProvider() {
			return this.provider;
		}

		public void setProvider(@Nullable String provider) {
			this.provider = provider;
		}

		public @Nullable String getModel() {
			return this.model;
		}

		public void setModel(@Nullable String model) {
			this.model = model;
		}

		public List<String> getFallbackModels() {
			return this.fallbackModels;
		}

		public void setFallbackModels(List<String> fallbackModels) {
			this.fallbackModels = fallbackModels;
		}

		public List<String> getAllowedModels() {
			return this.allowedModels;
		}

		public void setAllowedModels(List<String> allowedModels) {
			this.allowedModels = allowedModels;
		}

		public String getToolCallFormat() {
			return this.toolCallFormat;
		}

		public void setToolCallFormat(String toolCallFormat) {
			this.toolCallFormat = toolCallFormat;
		}

		public String getSessionMode() {
			return this.sessionMode;
		}

		public void setSessionMode(String sessionMode) {
			this.sessionMode = sessionMode;
		}

		public String getRunner() {
			return this.runner;
		}

		public void setRunner(String runner) {
			this.runner = runner;
		}

		public @Nullable String getFallbackRunner() {
			return this.fallbackRunner;
		}

		public void setFallbackRunner(@Nullable String fallbackRunner) {
			this.fallbackRunner = fallbackRunner;
		}

		public Map<String, String> getRunnerCommands() {
			return this.runnerCommands;
		}

		public void setRunnerCommands(Map<String, String> runnerCommands) {
			this.runnerCommands = runnerCommands;
		}

		public RetrievalQa getRetrievalQa() {
			return this.retrievalQa;
		}

		public PlanSettings getPlan() {
			return this.plan;
		}

		public @Nullable String getSystemPrompt() {
			return this.systemPrompt;
		}

		public void setSystemPrompt(@Nullable String systemPrompt) {
			this.systemPrompt = systemPrompt;
		}

		public @Nullable String getSystemPromptTemplate() {
			return this.systemPromptTemplate;
		}

		public void setSystemPromptTemplate(@Nullable String systemPromptTemplate) {
			this.systemPromptTemplate = systemPromptTemplate;
		}

		public Map<String, Object> getSystemPromptVariables() {
			return this.systemPromptVariables;
		}

		public void setSystemPromptVariables(Map<String, Object> systemPromptVariables) {
			this.systemPromptVariables = systemPromptVariables;
		}

		public @Nullable String getBaseSystemPrompt() {
			return this.baseSystemPrompt;
		}

		public void setBaseSystemPrompt(@Nullable String baseSystemPrompt) {
			this.baseSystemPrompt = baseSystemPrompt;
		}

		public AgentEnvironmentProperties getEnvironment() {
			return this.environment;
		}

		public @Nullable List<String> getTools() {
			return this.tools;
		}

		public void setTools(@Nullable List<String> tools) {
			this.tools = tools;
		}

		public List<String> getAgents() {
			return this.agents;
		}

		public void setAgents(List<String> agents) {
			this.agents = agents;
		}

		public @Nullable String getDescription() {
			return this.description;
		}

		public void setDescription(@Nullable String description) {
			this.description = description;
		}

		public List<String> getRoles() {
			return this.roles;
		}

		public void setRoles(List<String> roles) {
			this.roles = roles;
		}

		public ToolPermissionProperties getPermissions() {
			return this.permissions;
		}

		public @Nullable Integer getMaxToolResultLength() {
			return this.maxToolResultLength;
		}

		public void setMaxToolResultLength(@Nullable Integer maxToolResultLength) {
			this.maxToolResultLength = maxToolResultLength;
		}

		public int getMaxToolCallsPerResponse() {
			return this.maxToolCallsPerResponse;
		}

		public void setMaxToolCallsPerResponse(int maxToolCallsPerResponse) {
			this.maxToolCallsPerResponse = maxToolCallsPerResponse;
		}

		public int getMaxParallelToolCalls() {
			return this.maxParallelToolCalls;
		}

		public void setMaxParallelToolCalls(int maxParallelToolCalls) {
			this.maxParallelToolCalls = maxParallelToolCalls;
		}

		public int getMaxIterations() {
			return this.maxIterations;
		}

		public void setMaxIterations(int maxIterations) {
			this.maxIterations = maxIterations;
		}

		public Duration getToolTimeout() {
			return this.toolTimeout;
		}

		public void setToolTimeout(Duration toolTimeout) {
			this.toolTimeout = toolTimeout;
		}

		public Duration getTurnTimeout() {
			return this.turnTimeout;
		}

		public void setTurnTimeout(Duration turnTimeout) {
			this.turnTimeout = turnTimeout;
		}

		public MiddlewareProperties getMiddleware() {
			return this.middleware;
		}

		public AgentMemoryProperties getMemory() {
			return this.memory;
		}

		public AgentBudgetProperties getBudget() {
			return this.budget;
		}

		public AgentUntrustedContentProperties getUntrustedContent() {
			return this.untrustedContent;
		}

	}

	/**
	 * Settings of an agent's retrieval-qa runner.
	 */
	public static class RetrievalQa {

		/**
		 * Bean name of the Retriever to search. By default the only Retriever bean
		 * (the knowledge store of agent.knowledge, or the application's).
		 */
		private @Nullable String retriever;

		/**
		 * Most sources given to the model.
		 */
		private int topK = 5;

		/**
		 * Least score a source needs to be used; when none has it, the agent answers that
		 * nothing relevant was found, without calling the model.
		 */
		private double minScore = 0.1;

		public @Nullable String getRetriever() {
			return this.retriever;
		}

		public void setRetriever(@Nullable String retriever) {
			this.retriever = retriever;
		}

		public int getTopK() {
			return this.topK;
		}

		public void setTopK(int topK) {
			this.topK = topK;
		}

		public double getMinScore() {
			return this.minScore;
		}

		public void setMinScore(double minScore) {
			this.minScore = minScore;
		}

	}

	/**
	 * Plan-and-execute settings of an agent.
	 */
	public static class PlanSettings {

		/**
		 * Whether the agent plans before it acts: each turn asks a model for a plan of the
		 * user's message, then runs its steps as turns of the agent.
		 */
		private boolean enabled;

		/**
		 * Most steps a plan may have, replanned plans included.
		 */
		private int maxSteps = 10;

		/**
		 * Whether a failed step makes the model plan the remaining work from the results so
		 * far, instead of failing the plan.
		 */
		private boolean replan;

		/**
		 * Most replans in one turn.
		 */
		private int maxReplans = 2;

		/**
		 * Most steps run at the same time, among steps whose declared dependencies are
		 * done; 1 runs one step at a time.
		 */
		private int parallelism = 1;

		/**
		 * Name of the model asked for plans (a model, provider or ChatModel bean). By
		 * default the agent's model.
		 */
		private @Nullable String model;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getMaxSteps() {
			return this.maxSteps;
		}

		public void setMaxSteps(int maxSteps) {
			this.maxSteps = maxSteps;
		}

		public boolean isReplan() {
			return this.replan;
		}

		public void setReplan(boolean replan) {
			this.replan = replan;
		}

		public int getMaxReplans() {
			return this.maxReplans;
		}

		public void setMaxReplans(int maxReplans) {
			this.maxReplans = maxReplans;
		}

		public int getParallelism() {
			return this.parallelism;
		}

		public void setParallelism(int parallelism) {
			this.parallelism = parallelism;
		}

		public @Nullable String getModel() {
			return this.model;
		}

		public void setModel(@Nullable String model) {
			this.model = model;
		}

	}

	/**
	 * Retries of failed model calls, shared by all providers.
	 */
	public static class Retry {

		/**
		 * Total number of attempts per model call, the first included. 1 disables retry.
		 */
		private int maxAttempts = 3;

		/**
		 * Wait before the first retry.
		 */
		private Duration initialBackoff = Duration.ofMillis(500);

		/**
		 * Factor by which the wait grows with each retry.
		 */
		private double multiplier = 2.0;

		/**
		 * Longest wait between two attempts.
		 */
		private Duration maxBackoff = Duration.ofSeconds(30);

		/**
		 * Longest wait a provider's Retry-After may ask for, on a 429, 503 or any other
		 * retryable failure. A call whose provider asks for longer fails at once, its
		 * message naming the wait.
		 */
		private Duration maxRetryAfter = Duration.ofSeconds(60);

		public int getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(double multiplier) {
			this.multiplier = multiplier;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public Duration getMaxRetryAfter() {
			return this.maxRetryAfter;
		}

		public void setMaxRetryAfter(Duration maxRetryAfter) {
			this.maxRetryAfter = maxRetryAfter;
		}

	}

	/**
	 * HTTP endpoint that exposes the agents.
	 */
	public static class Web {

		/**
		 * Whether to expose the agents over HTTP. Needs a reactive web application.
		 */
		private boolean enabled;

		/**
		 * Path under which the agent endpoints are mapped.
		 */
		private String basePath = "/agents";

		/**
		 * Path under which the background runs of workflows are mapped
		 * ({workflows-path}/{name}/runs).
		 */
		private String workflowsPath = "/workflows";

		/**
		 * Whether callers may send 'instructions', system text for one turn, with invoke and
		 * stream requests. Off by default: such text steers the agent as the system prompt
		 * does, so allow it only to callers you trust.
		 */
		private boolean allowInstructions;

		/**
		 * Cross-origin (CORS) access to the agent and workflow routes. Closed when no
		 * origin is allowed: no CORS headers, so browsers refuse cross-origin calls.
		 */
		private final Cors cors = new Cors();

		public Cors getCors() {
			return this.cors;
		}

		public boolean isAllowInstructions() {
			return this.allowInstructions;
		}

		public void setAllowInstructions(boolean allowInstructions) {
			this.allowInstructions = allowInstructions;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getBasePath() {
			return this.basePath;
		}

		public void setBasePath(String basePath) {
			this.basePath = basePath;
		}

		public String getWorkflowsPath() {
			return this.workflowsPath;
		}

		public void setWorkflowsPath(String workflowsPath) {
			this.workflowsPath = workflowsPath;
		}

	}

	/**
	 * Cross-origin access to the agents' HTTP endpoint.
	 */
	public static class Cors {

		/**
		 * Origins allowed to call the endpoint from a browser, such as
		 * "https://app.example.com", or patterns such as "https://*.example.com". None by
		 * default: CORS is closed.
		 */
		private List<String> allowedOrigins = new ArrayList<>();

		/**
		 * HTTP methods allowed in cross-origin calls.
		 */
		private List<String> allowedMethods = new ArrayList<>(List.of("GET", "POST", "DELETE"));

		/**
		 * Request headers allowed in cross-origin calls; "*" for any.
		 */
		private List<String> allowedHeaders = new ArrayList<>(List.of("*"));

		/**
		 * Response headers a cross-origin caller may read, besides the simple ones.
		 */
		private List<String> exposedHeaders = new ArrayList<>(List.of("Location"));

		/**
		 * Whether cross-origin calls may carry credentials (cookies, HTTP authentication).
		 * Then origins must be listed, not "*".
		 */
		private boolean allowCredentials;

		/**
		 * How long browsers may cache the answer to a preflight request.
		 */
		private Duration maxAge = Duration.ofMinutes(30);

		public List<String> getAllowedOrigins() {
			return this.allowedOrigins;
		}

		public void setAllowedOrigins(List<String> allowedOrigins) {
			this.allowedOrigins = allowedOrigins;
		}

		public List<String> getAllowedMethods() {
			return this.allowedMethods;
		}

		public void setAllowedMethods(List<String> allowedMethods) {
			this.allowedMethods = allowedMethods;
		}

		public List<String> getAllowedHeaders() {
			return this.allowedHeaders;
		}

		public void setAllowedHeaders(List<String> allowedHeaders) {
			this.allowedHeaders = allowedHeaders;
		}

		public List<String> getExposedHeaders() {
			return this.exposedHeaders;
		}

		public void setExposedHeaders(List<String> exposedHeaders) {
			this.exposedHeaders = exposedHeaders;
		}

		public boolean isAllowCredentials() {
			return this.allowCredentials;
		}

		public void setAllowCredentials(boolean allowCredentials) {
			this.allowCredentials = allowCredentials;
		}

		public Duration getMaxAge() {
			return this.maxAge;
		}

		public void setMaxAge(Duration maxAge) {
			this.maxAge = maxAge;
		}

	}

}
