package dev.agcore.model;

/**
 * Tokens consumed by one or more model calls.
 *
 * @param inputTokens tokens in the prompt
 * @param outputTokens tokens generated
 * @param totalTokens input plus output, as reported (some servers count extra)
 */
public record Usage(long inputTokens, long outputTokens, long totalTokens) {

	/** No usage reported. */
	public static final Usage EMPTY = new Usage(0, 0, 0);

	public static Usage of(long inputTokens, long outputTokens) {
		return new Usage(inputTokens, outputTokens, inputTokens + outputTokens);
	}

	public Usage plus(Usage other) {
		if (other == EMPTY) {
			return this;
		}
		if (this == EMPTY) {
			return other;
		}
		return new Usage(this.inputTokens + other.inputTokens, this.outputTokens + other.outputTokens,
				this.totalTokens + other.totalTokens);
	}

	public boolean isEmpty() {
		return this.inputTokens == 0 && this.outputTokens == 0 && this.totalTokens == 0;
	}

}
