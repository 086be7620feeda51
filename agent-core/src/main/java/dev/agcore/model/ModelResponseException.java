package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * The provider answered with something that is not a valid response (malformed JSON, a
 * missing field). Not retryable.
 */
public class ModelResponseException extends ModelException {

	public ModelResponseException(String provider, String message) {
		super(provider, 0, message, null);
	}

	public ModelResponseException(String provider, String message, @Nullable Throwable cause) {
		super(provider, 0, message, cause);
	}

	@Override
	public boolean isRetryable() {
		return false;
	}

}
