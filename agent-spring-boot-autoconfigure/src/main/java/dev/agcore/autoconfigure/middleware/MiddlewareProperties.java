package dev.agcore.autoconfigure.middleware;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.middleware.builtin.ExitBehavior;
import dev.agcore.middleware.builtin.PiiStrategy;
import org.jspecify.annotations.Nullable;

/**
 * The middleware of one agent, under {@code agent.agents.<name>.middleware}: which
 * middleware beans it uses and the built-ins it switches on. A built-in is created only
 * when its section is present (or has {@code enabled: true}); {@code enabled: false}
 * switches a present section off.
 *
 * @since 0.1.0
 */
public class MiddlewareProperties {

	/**
	 * Bean names of the middleware the agent uses, in this order: AgentMiddleware beans
	 * and beans with hook-annotated methods. Every such bean, ordered by @Order, when not
	 * set; none when empty.
	 */
	private @Nullable List<String> use;

	/**
	 * Limit on the model calls of a turn and of a session.
	 */
	private @Nullable ModelCallLimit modelCallLimit;

	/**
	 * Limit on the tool calls of a turn, in total and per tool.
	 */
	private @Nullable ToolCallLimit toolCallLimit;

	/**
	 * Retry of failed tool calls with exponential backoff.
	 */
	private @Nullable ToolRetry toolRetry;

	/**
	 * Models to try, in order, when the agent's model fails.
	 */
	private @Nullable ModelFallback modelFallback;

	/**
	 * Summary of the older conversation once it grows over a token threshold.
	 */
	private @Nullable Summarization summarization;

	/**
	 * Clearing of old tool results once a request grows over a token threshold.
	 */
	private @Nullable ContextEditing contextEditing;

	/**
	 * Redaction, masking or blocking of personal data and secrets.
	 */
	private @Nullable Pii pii;

	/**
	 * A to-do list for multi-step work: a write_todos tool and the current list shown to
	 * the model, kept in session memory.
	 */
	private @Nullable TodoList todoList;

	/**
	 * Tools that wait for a person's approval before they run.
	 */
	private @Nullable HumanInTheLoop humanInTheLoop;

	public @Nullable List<String> getUse() {
		return this.use;
	}

	public void setUse(@Nullable List<String> use) {
		this.use = use;
	}

	public @Nullable ModelCallLimit getModelCallLimit() {
		return this.modelCallLimit;
	}

	public void setModelCallLimit(@Nullable ModelCallLimit modelCallLimit) {
		this.modelCallLimit = modelCallLimit;
	}

	public @Nullable ToolCallLimit getToolCallLimit() {
		return this.toolCallLimit;
	}

	public void setToolCallLimit(@Nullable ToolCallLimit toolCallLimit) {
		this.toolCallLimit = toolCallLimit;
	}

	public @Nullable ToolRetry getToolRetry() {
		return this.toolRetry;
	}

	public void setToolRetry(@Nullable ToolRetry toolRetry) {
		this.toolRetry = toolRetry;
	}

	public @Nullable ModelFallback getModelFallback() {
		return this.modelFallback;
	}

	public void setModelFallback(@Nullable ModelFallback modelFallback) {
		this.modelFallback = modelFallback;
	}

	public @Nullable Summarization getSummarization() {
		return this.summarization;
	}

	public void setSummarization(@Nullable Summarization summarization) {
		this.summarization = summarization;
	}

	public @Nullable ContextEditing getContextEditing() {
		return this.contextEditing;
	}

	public void setContextEditing(@Nullable ContextEditing contextEditing) {
		this.contextEditing = contextEditing;
	}

	public @Nullable Pii getPii() {
		return this.pii;
	}

	public void setPii(@Nullable Pii pii) {
		this.pii = pii;
	}

	public @Nullable TodoList getTodoList() {
		return this.todoList;
	}

	public void setTodoList(@Nullable TodoList todoList) {
		this.todoList = todoList;
	}

	public @Nullable HumanInTheLoop getHumanInTheLoop() {
		return this.humanInTheLoop;
	}

	public void setHumanInTheLoop(@Nullable HumanInTheLoop humanInTheLoop) {
		this.humanInTheLoop = humanInTheLoop;
	}

	/**
	 * A built-in that can be switched off while its settings stay in place.
	 */
	public abstract static class Switchable {

		/**
		 * Whether to use this middleware. On when the section is present.
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
	 * Model-call limit.
	 */
	public static class ModelCallLimit extends Switchable {

		/**
		 * Maximum number of model calls in one turn.
		 */
		private @Nullable Integer perTurn;

		/**
		 * Maximum number of model calls in one session, across turns. Counted in memory.
		 */
		private @Nullable Integer perSession;

		/**
		 * What to do when a limit is reached: "end" the turn with an answer naming the
		 * limit, or "fail" it.
		 */
		private ExitBehavior exitBehavior = ExitBehavior.END;

		public @Nullable Integer getPerTurn() {
			return this.perTurn;
		}

		public void setPerTurn(@Nullable Integer perTurn) {
			this.perTurn = perTurn;
		}

		public @Nullable Integer getPerSession() {
			return this.perSession;
		}

		public void setPerSession(@Nullable Integer perSession) {
			this.perSession = perSession;
		}

		public ExitBehavior getExitBehavior() {
			return this.exitBehavior;
		}

		public void setExitBehavior(ExitBehavior exitBehavior) {
			this.exitBehavior = exitBehavior;
		}

	}

	/**
	 * Tool-call limit.
	 */
	public static class ToolCallLimit extends Switchable {

		/**
		 * Maximum number of tool calls in one turn, all tools together.
		 */
		private @Nullable Integer perTurn;

		/**
		 * Maximum number of calls of one tool in one turn, by tool name.
		 */
		private final Map<String, Integer> perTool = new LinkedHashMap<>();

		/**
		 * What to do with a call over a limit: answer the model with an error
		 * ("error-to-model"), answer it and then "end" the turn, or "fail" the turn.
		 */
		private ExitBehavior exitBehavior = ExitBehavior.ERROR_TO_MODEL;

		public @Nullable Integer getPerTurn() {
			return this.perTurn;
		}

		public void setPerTurn(@Nullable Integer perTurn) {
			this.perTurn = perTurn;
		}

		public Map<String, Integer> getPerTool() {
			return this.perTool;
		}

		public ExitBehavior getExitBehavior() {
			return this.exitBehavior;
		}

		public void setExitBehavior(ExitBehavior exitBehavior) {
			this.exitBehavior = exitBehavior;
		}

	}

	/**
	 * Tool retry.
	 */
	public static class ToolRetry extends Switchable {

		/**
		 * Total number of attempts per tool call, the first included.
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
		private Duration maxBackoff = Duration.ofSeconds(10);

		/**
		 * Randomization of each wait, in [0, 1): 0.5 waits between half and one and a
		 * half times the computed value.
		 */
		private double jitter;

		/**
		 * Names of the tools to retry. All tools when empty.
		 */
		private List<String> tools = new ArrayList<>();

		/**
		 * Exception types whose failures are retried, subclasses included. When empty,
		 * every failure caused by an exception is retried except invalid arguments.
		 */
		private List<Class<? extends Throwable>> retryOn = new ArrayList<>();

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

		public double getJitter() {
			return this.jitter;
		}

		public void setJitter(double jitter) {
			this.jitter = jitter;
		}

		public List<String> getTools() {
			return this.tools;
		}

		public void setTools(List<String> tools) {
			this.tools = tools;
		}

		public List<Class<? extends Throwable>> getRetryOn() {
			return this.retryOn;
		}

		public void setRetryOn(List<Class<? extends Throwable>> retryOn) {
			this.retryOn = retryOn;
		}

	}

	/**
	 * Model fallback.
	 */
	public static class ModelFallback extends Switchable {

		/**
		 * Models to fall back to, in order: names of providers under agent.providers or
		 * of ChatModel beans.
		 */
		private List<String> models = new ArrayList<>();

		/**
		 * Exception types that also cause a fallback, besides retryable model failures
		 * (server errors, rate limits, timeouts, connection failures).
		 */
		private List<Class<? extends Throwable>> fallbackOn = new ArrayList<>();

		public List<String> getModels() {
			return this.models;
		}

		public void setModels(List<String> models) {
			this.models = models;
		}

		public List<Class<? extends Throwable>> getFallbackOn() {
			return this.fallbackOn;
		}

		public void setFallbackOn(List<Class<? extends Throwable>> fallbackOn) {
			this.fallbackOn = fallbackOn;
		}

	}

	/**
	 * Summarization.
	 */
	public static class Summarization extends Switchable {

		/**
		 * Summarize when a request is estimated above this many tokens.
		 */
		private long triggerTokens = 100_000;

		/**
		 * Number of the latest messages always kept as they are.
		 */
		private int keepMessages = 20;

		/**
		 * Model that writes the summaries: the name of a provider under agent.providers
		 * or of a ChatModel bean. The agent's own model when not set.
		 */
		private @Nullable String model;

		/**
		 * Instructions sent to the summarizing model. A built-in prompt when not set.
		 */
		private @Nullable String prompt;

		public long getTriggerTokens() {
			return this.triggerTokens;
		}

		public void setTriggerTokens(long triggerTokens) {
			this.triggerTokens = triggerTokens;
		}

		public int getKeepMessages() {
			return this.keepMessages;
		}

		public void setKeepMessages(int keepMessages) {
			this.keepMessages = keepMessages;
		}

		public @Nullable String getModel() {
			return this.model;
		}

		public void setModel(@Nullable String model) {
			this.model = model;
		}

		public @Nullable String getPrompt() {
			return this.prompt;
		}

		public void setPrompt(@Nullable String prompt) {
			this.prompt = prompt;
		}

	}

	/**
	 * Context editing.
	 */
	public static class ContextEditing extends Switchable {

		/**
		 * Edit requests estimated above this many tokens.
		 */
		private long triggerTokens = 100_000;

		/**
		 * Number of the most recent tool results kept intact.
		 */
		private int keepToolResults = 3;

		/**
		 * Text that replaces a cleared tool result. A short note when not set.
		 */
		private @Nullable String placeholder;

		/**
		 * Names of tools whose results are never cleared.
		 */
		private List<String> excludeTools = new ArrayList<>();

		public long getTriggerTokens() {
			return this.triggerTokens;
		}

		public void setTriggerTokens(long triggerTokens) {
			this.triggerTokens = triggerTokens;
		}

		public int getKeepToolResults() {
			return this.keepToolResults;
		}

		public void setKeepToolResults(int keepToolResults) {
			this.keepToolResults = keepToolResults;
		}

		public @Nullable String getPlaceholder() {
			return this.placeholder;
		}

		public void setPlaceholder(@Nullable String placeholder) {
			this.placeholder = placeholder;
		}

		public List<String> getExcludeTools() {
			return this.excludeTools;
		}

		public void setExcludeTools(List<String> excludeTools) {
			this.excludeTools = excludeTools;
		}

	}

	/**
	 * PII redaction. When no type has a strategy, every type is redacted.
	 */
	public static class Pii extends Switchable {

		/**
		 * What to do with email addresses: "redact", "mask" or "block".
		 */
		private @Nullable PiiStrategy email;

		/**
		 * What to do with phone numbers: "redact", "mask" or "block".
		 */
		private @Nullable PiiStrategy phone;

		/**
		 * What to do with credit card numbers: "redact", "mask" or "block".
		 */
		private @Nullable PiiStrategy creditCard;

		/**
		 * What to do with API keys and access tokens: "redact", "mask" or "block".
		 */
		private @Nullable PiiStrategy apiKey;

		/**
		 * Whether to check the user's messages.
		 */
		private boolean applyToInput = true;

		/**
		 * Whether to check the model's answers.
		 */
		private boolean applyToOutput = true;

		/**
		 * Whether to check tool results.
		 */
		private boolean applyToToolResults;

		public @Nullable PiiStrategy getEmail() {
			return this.email;
		}

		public void setEmail(@Nullable PiiStrategy email) {
			this.email = email;
		}

		public @Nullable PiiStrategy getPhone() {
			return this.phone;
		}

		public void setPhone(@Nullable PiiStrategy phone) {
			this.phone = phone;
		}

		public @Nullable PiiStrategy getCreditCard() {
			return this.creditCard;
		}

		public void setCreditCard(@Nullable PiiStrategy creditCard) {
			this.creditCard = creditCard;
		}

		public @Nullable PiiStrategy getApiKey() {
			return this.apiKey;
		}

		public void setApiKey(@Nullable PiiStrategy apiKey) {
			this.apiKey = apiKey;
		}

		public boolean isApplyToInput() {
			return this.applyToInput;
		}

		public void setApplyToInput(boolean applyToInput) {
			this.applyToInput = applyToInput;
		}

		public boolean isApplyToOutput() {
			return this.applyToOutput;
		}

		public void setApplyToOutput(boolean applyToOutput) {
			this.applyToOutput = applyToOutput;
		}

		public boolean isApplyToToolResults() {
			return this.applyToToolResults;
		}

		public void setApplyToToolResults(boolean applyToToolResults) {
			this.applyToToolResults = applyToToolResults;
		}

	}

	/**
	 * To-do list; no settings besides {@code enabled}.
	 */
	public static class TodoList extends Switchable {

	}

	/**
	 * Human in the loop.
	 */
	public static class HumanInTheLoop extends Switchable {

		/**
		 * Tools that wait for approval: a list of tool names, or a map of tool name to
		 * the reason shown to the person deciding.
		 */
		private Map<String, String> tools = new LinkedHashMap<>();

		public Map<String, String> getTools() {
			return this.tools;
		}

		public void setTools(Map<String, String> tools) {
			this.tools = tools;
		}

	}

}
