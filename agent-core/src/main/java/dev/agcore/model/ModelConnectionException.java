package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * The provider could not be reached, or the connection broke. Retryable.
 */
public class ModelConnectionException extends ModelException {

	public ModelConnectionException(String provider, String message, @Nullable Throwable cause) {
		super(provider, 0, message, cause);
	}

	@Override
	public boolean isRetryable() {
		return true;
	}

}
