package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * The conversation is longer than the model's context window. Not retryable as is: the
 * conversation must be shortened first (see summarization middleware).
 */
public class ContextLengthExceededException extends ModelRequestException {

	public ContextLengthExceededException(String provider, int statusCode, String message,
			@Nullable Throwable cause) {
		super(provider, statusCode, message, cause);
	}

}
