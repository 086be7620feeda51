package dev.agcore.model;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Per-request options; a null component means "use the model's default". A model's
 * configured defaults and a request's options are combined with
 * {@link #withDefaults(ChatOptions)}.
 *
 * @param model the model to use instead of the configured one
 * @param temperature the sampling temperature
 * @param maxTokens the maximum number of tokens to generate
 * @param topP nucleus sampling probability mass
 * @param stop sequences that end the answer; empty for none
 * @param seed a seed for reproducible sampling, where the provider supports one
 * @param frequencyPenalty penalty for tokens by how often they appeared
 * @param presencePenalty penalty for tokens that appeared at all
 * @param reasoningEffort how hard a reasoning model thinks: {@code low}, {@code medium} or
 * {@code high} (OpenAI-style)
 * @param thinkingBudget the token budget for thinking (Anthropic, Gemini); 0 turns
 * thinking off where the provider allows
 * @param toolChoice whether and which tool the model must call
 * @param responseFormat the shape of the answer
 * @param timeout how long to wait for the answer, instead of the provider's response
 * timeout
 */
public record ChatOptions(@Nullable String model, @Nullable Double temperature, @Nullable Integer maxTokens,
		@Nullable Double topP, List<String> stop, @Nullable Long seed, @Nullable Double frequencyPenalty,
		@Nullable Double presencePenalty, @Nullable String reasoningEffort, @Nullable Integer thinkingBudget,
		@Nullable ToolChoice toolChoice, @Nullable ResponseFormat responseFormat, @Nullable Duration timeout) {

	/** Options that change nothing. */
	public static final ChatOptions DEFAULTS = builder().build();

	public ChatOptions {
		stop = (stop != null) ? List.copyOf(stop) : List.of();
		if (maxTokens != null && maxTokens < 1) {
			throw new IllegalArgumentException("'maxTokens' must be positive (was " + maxTokens + ")");
		}
		if (thinkingBudget != null && thinkingBudget < 0) {
			throw new IllegalArgumentException("'thinkingBudget' must not be negative (was " + thinkingBudget + ")");
		}
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new IllegalArgumentException("'timeout' must be positive (was " + timeout + ")");
		}
	}

	/**
	 * Create options with only the three original components.
	 * @param model the model, null for the default
	 * @param temperature the temperature, null for the default
	 * @param maxTokens the token limit, null for the default
	 */
	public ChatOptions(@Nullable String model, @Nullable Double temperature, @Nullable Integer maxTokens) {
		this(model, temperature, maxTokens, null, List.of(), null, null, null, null, null, null, null, null);
	}

	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return a builder holding these options, to change some of them.
	 * @return the builder
	 */
	public Builder mutate() {
		return new Builder().model(this.model)
			.temperature(this.temperature)
			.maxTokens(this.maxTokens)
			.topP(this.topP)
			.stop(this.stop)
			.seed(this.seed)
			.frequencyPenalty(this.frequencyPenalty)
			.presencePenalty(this.presencePenalty)
			.reasoningEffort(this.reasoningEffort)
			.thinkingBudget(this.thinkingBudget)
			.toolChoice(this.toolChoice)
			.responseFormat(this.responseFormat)
			.timeout(this.timeout);
	}

	/**
	 * Return these options with every unset component taken from the given defaults.
	 * @param defaults the defaults, such as a configured model's options
	 * @return the combined options
	 */
	public ChatOptions withDefaults(ChatOptions defaults) {
		if (defaults == DEFAULTS || defaults.equals(DEFAULTS)) {
			return this;
		}
		if (this == DEFAULTS) {
			return defaults;
		}
		return new ChatOptions(or(this.model, defaults.model), or(this.temperature, defaults.temperature),
				or(this.maxTokens, defaults.maxTokens), or(this.topP, defaults.topP),
				this.stop.isEmpty() ? defaults.stop : this.stop, or(this.seed, defaults.seed),
				or(this.frequencyPenalty, defaults.frequencyPenalty), or(this.presencePenalty, defaults.presencePenalty),
				or(this.reasoningEffort, defaults.reasoningEffort), or(this.thinkingBudget, defaults.thinkingBudget),
				or(this.toolChoice, defaults.toolChoice), or(this.responseFormat, defaults.responseFormat),
				or(this.timeout, defaults.timeout));
	}

	private static <T> @Nullable T or(@Nullable T value, @Nullable T fallback) {
		return (value != null) ? value : fallback;
	}

	/**
	 * Builds {@link ChatOptions}; every option starts unset.
	 */
	public static final class Builder {

		private @Nullable String model;

		private @Nullable Double temperature;

		private @Nullable Integer maxTokens;

		private @Nullable Double topP;

		private List<String> stop = List.of();

		private @Nullable Long seed;

		private @Nullable Double frequencyPenalty;

		private @Nullable Double presencePenalty;

		private @Nullable String reasoningEffort;

		private @Nullable Integer thinkingBudget;

		private @Nullable ToolChoice toolChoice;

		private @Nullable ResponseFormat responseFormat;

		private @Nullable Duration timeout;

		private Builder() {
		}

		public Builder model(@Nullable String model) {
			this.model = model;
			return this;
		}

		public Builder temperature(@Nullable Double temperature) {
			this.temperature = temperature;
			return this;
		}

		public Builder maxTokens(@Nullable Integer maxTokens) {
			this.maxTokens = maxTokens;
			return this;
		}

		public Builder topP(@Nullable Double topP) {
			this.topP = topP;
			return this;
		}

		public Builder stop(@Nullable List<String> stop) {
			this.stop = (stop != null) ? stop : List.of();
			return this;
		}

		public Builder seed(@Nullable Long seed) {
			this.seed = seed;
			return this;
		}

		public Builder frequencyPenalty(@Nullable Double frequencyPenalty) {
			this.frequencyPenalty = frequencyPenalty;
			return this;
		}

		public Builder presencePenalty(@Nullable Double presencePenalty) {
			this.presencePenalty = presencePenalty;
			return this;
		}

		public Builder reasoningEffort(@Nullable String reasoningEffort) {
			this.reasoningEffort = reasoningEffort;
			return this;
		}

		public Builder thinkingBudget(@Nullable Integer thinkingBudget) {
			this.thinkingBudget = thinkingBudget;
			return this;
		}

		public Builder toolChoice(@Nullable ToolChoice toolChoice) {
			this.toolChoice = toolChoice;
			return this;
		}

		public Builder responseFormat(@Nullable ResponseFormat responseFormat) {
			this.responseFormat = responseFormat;
			return this;
		}

		public Builder timeout(@Nullable Duration timeout) {
			this.timeout = timeout;
			return this;
		}

		public ChatOptions build() {
			return new ChatOptions(this.model, this.temperature, this.maxTokens, this.topP, this.stop, this.seed,
					this.frequencyPenalty, this.presencePenalty, this.reasoningEffort, this.thinkingBudget,
					this.toolChoice, this.responseFormat, this.timeout);
		}

	}

}
