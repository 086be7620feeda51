package dev.agcore.model;

/**
 * Tokens consumed by one or more model calls. The detail counts are parts of the totals,
 * not additions: cached input is part of the input, reasoning part of the output.
 *
 * @param inputTokens tokens in the prompt, cached or not
 * @param outputTokens tokens generated, reasoning included
 * @param totalTokens input plus output, as reported (some servers count extra)
 * @param cachedInputTokens input tokens read from the provider's prompt cache
 * @param cacheWriteTokens input tokens written to the provider's prompt cache
 * @param reasoningTokens output tokens spent on reasoning (thinking)
 */
public record Usage(long inputTokens, long outputTokens, long totalTokens, long cachedInputTokens,
		long cacheWriteTokens, long reasoningTokens) {

	/** No usage reported. */
	public static final Usage EMPTY = new Usage(0, 0, 0);

	/**
	 * Create a usage without cache or reasoning detail.
	 * @param inputTokens tokens in the prompt
	 * @param outputTokens tokens generated
	 * @param totalTokens input plus output, as reported
	 */
	public Usage(long inputTokens, long outputTokens, long totalTokens) {
		this(inputTokens, outputTokens, totalTokens, 0, 0, 0);
	}

	public static Usage of(long inputTokens, long outputTokens) {
		return new Usage(inputTokens, outputTokens, inputTokens + outputTokens);
	}

	/**
	 * Return this usage with cache and reasoning detail.
	 * @param cachedInputTokens input tokens read from the cache
	 * @param cacheWriteTokens input tokens written to the cache
	 * @param reasoningTokens output tokens spent on reasoning
	 * @return the usage
	 */
	public Usage withDetails(long cachedInputTokens, long cacheWriteTokens, long reasoningTokens) {
		return new Usage(this.inputTokens, this.outputTokens, this.totalTokens, cachedInputTokens, cacheWriteTokens,
				reasoningTokens);
	}

	public Usage plus(Usage other) {
		if (other == EMPTY) {
			return this;
		}
		if (this == EMPTY) {
			return other;
		}
		return new Usage(this.inputTokens + other.inputTokens, this.outputTokens + other.outputTokens,
				this.totalTokens + other.totalTokens, this.cachedInputTokens + other.cachedInputTokens,
				this.cacheWriteTokens + other.cacheWriteTokens, this.reasoningTokens + other.reasoningTokens);
	}

	public boolean isEmpty() {
		return this.inputTokens == 0 && this.outputTokens == 0 && this.totalTokens == 0 && this.cachedInputTokens == 0
				&& this.cacheWriteTokens == 0 && this.reasoningTokens == 0;
	}

}
