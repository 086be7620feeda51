package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;

/**
 * When a request is estimated over a token threshold, replaces the text of all but the
 * last few tool results with a short placeholder. The messages themselves stay, with
 * their call ids, so every tool call keeps its result and the conversation stays valid
 * for every provider. Only the request is edited: the stored conversation keeps the full
 * results.
 * <pre>
 * agent.middleware(ContextEditingMiddleware.builder().triggerTokens(50_000).keepToolResults(3).build());
 * </pre>
 */
public final class ContextEditingMiddleware implements AgentMiddleware {

	/** The text that replaces a cleared tool result by default. */
	public static final String DEFAULT_PLACEHOLDER = "[tool result cleared to save context]";

	private final long triggerTokens;

	private final int keepToolResults;

	private final String placeholder;

	private final Set<String> excludeTools;

	private final TokenEstimator estimator;

	private ContextEditingMiddleware(Builder builder) {
		this.triggerTokens = builder.triggerTokens;
		this.keepToolResults = builder.keepToolResults;
		this.placeholder = builder.placeholder;
		this.excludeTools = Set.copyOf(builder.excludeTools);
		this.estimator = builder.estimator;
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
		List<Message> messages = request.messages();
		if (this.estimator.estimate(messages) <= this.triggerTokens) {
			return request;
		}
		int results = 0;
		for (Message message : messages) {
			if (message instanceof ToolResultMessage) {
				results++;
			}
		}
		int toClear = results - this.keepToolResults;
		if (toClear <= 0) {
			return request;
		}
		List<Message> edited = new ArrayList<>(messages.size());
		boolean changed = false;
		for (Message message : messages) {
			if (message instanceof ToolResultMessage result && toClear-- > 0 && isClearable(result)) {
				edited.add(new ToolResultMessage(result.toolCallId(), result.toolName(), this.placeholder,
						result.error()));
				changed = true;
			}
			else {
				edited.add(message);
			}
		}
		return changed ? new ChatRequest(edited, request.tools(), request.options()) : request;
	}

	private boolean isClearable(ToolResultMessage result) {
		return !this.excludeTools.contains(result.toolName()) && !result.text().equals(this.placeholder);
	}

	@Override
	public String toString() {
		return "ContextEditingMiddleware[triggerTokens=" + this.triggerTokens + ", keepToolResults="
				+ this.keepToolResults + "]";
	}

	/**
	 * Builds a {@link ContextEditingMiddleware}.
	 */
	public static final class Builder {

		private long triggerTokens = 100_000;

		private int keepToolResults = 3;

		private String placeholder = DEFAULT_PLACEHOLDER;

		private Set<String> excludeTools = Set.of();

		private TokenEstimator estimator = TokenEstimator.CHARS_PER_TOKEN;

		private Builder() {
		}

		/**
		 * Edit requests estimated above this many tokens; default 100,000.
		 * @param triggerTokens at least 1
		 * @return this builder
		 */
		public Builder triggerTokens(long triggerTokens) {
			this.triggerTokens = Checks.atLeastOne(triggerTokens, "triggerTokens");
			return this;
		}

		/**
		 * Keep this many of the most recent tool results intact; default 3.
		 * @param keepToolResults at least 0
		 * @return this builder
		 */
		public Builder keepToolResults(int keepToolResults) {
			if (keepToolResults < 0) {
				throw new IllegalArgumentException("'keepToolResults' must not be negative, was " + keepToolResults);
			}
			this.keepToolResults = keepToolResults;
			return this;
		}

		public Builder placeholder(String placeholder) {
			this.placeholder = Checks.notBlank(placeholder, "placeholder");
			return this;
		}

		/**
		 * Never clear the results of these tools.
		 * @param tools the tool names
		 * @return this builder
		 */
		public Builder excludeTools(String... tools) {
			this.excludeTools = Set.of(tools);
			return this;
		}

		public Builder tokenEstimator(TokenEstimator estimator) {
			this.estimator = Objects.requireNonNull(estimator, "'estimator' must not be null");
			return this;
		}

		public ContextEditingMiddleware build() {
			return new ContextEditingMiddleware(this);
		}

	}

}
