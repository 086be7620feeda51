package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * The provider failed (HTTP 5xx). Retryable.
 */
public class ModelServerException extends ModelException {

	public ModelServerException(String provider, int statusCode, String message) {
		super(provider, statusCode, message, null);
	}

	public ModelServerException(String provider, int statusCode, String message, @Nullable Throwable cause) {
		super(provider, statusCode, message, cause);
	}

	@Override
	public boolean isRetryable() {
		return true;
	}

}
