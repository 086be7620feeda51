package dev.agcore.autoconfigure;

import java.time.Duration;
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

	private final Retry retry = new Retry();

	private final Web web = new Web();

	public Map<String, Provider> getProviders() {
		return this.providers;
	}

	public Map<String, AgentSpec> getAgents() {
		return this.agents;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Web getWeb() {
		return this.web;
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
		 * System prompt sent at the start of every conversation.
		 */
		private @Nullable String systemPrompt;

		/**
		 * Tools the agent may use: names ("get_weather"), globs ("notes_*") and groups
		 * ("group:notes", by tool category). All tools when not set; none when empty.
		 */
		private @Nullable List<String> tools;

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

		public @Nullable String getProvider() {
			return this.provider;
		}

		public void setProvider(@Nullable String provider) {
			this.provider = provider;
		}

		public @Nullable String getSystemPrompt() {
			return this.systemPrompt;
		}

		public void setSystemPrompt(@Nullable String systemPrompt) {
			this.systemPrompt = systemPrompt;
		}

		public @Nullable List<String> getTools() {
			return this.tools;
		}

		public void setTools(@Nullable List<String> tools) {
			this.tools = tools;
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

	}

}
