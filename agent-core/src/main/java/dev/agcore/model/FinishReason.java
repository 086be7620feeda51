package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * Why a model stopped generating.
 */
public enum FinishReason {

	/** A natural end, or a stop sequence. */
	STOP,
	/** The token limit was reached; the answer is cut. */
	LENGTH,
	/** The model asked for tools. */
	TOOL_CALLS,
	/** The provider's content filter withheld output. */
	CONTENT_FILTER,
	/** Anything else, including an unknown value from a new API version. */
	OTHER;

	/**
	 * Map an OpenAI-style finish reason ({@code stop}, {@code length}, {@code tool_calls},
	 * {@code function_call}, {@code content_filter}) to a value.
	 * @param value the wire value, may be null
	 * @return the finish reason, {@link #OTHER} for unknown values and {@link #STOP} for null
	 */
	public static FinishReason fromOpenAi(@Nullable String value) {
		if (value == null) {
			return STOP;
		}
		return switch (value) {
			case "stop", "end_turn", "stop_sequence" -> STOP;
			case "length", "max_tokens" -> LENGTH;
			case "tool_calls", "function_call", "tool_use" -> TOOL_CALLS;
			case "content_filter" -> CONTENT_FILTER;
			default -> OTHER;
		};
	}

}
