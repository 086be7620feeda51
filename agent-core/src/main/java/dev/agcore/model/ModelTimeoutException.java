package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * No response arrived within the configured timeout. Retryable.
 */
public class ModelTimeoutException extends ModelException {

	public ModelTimeoutException(String provider, String message, @Nullable Throwable cause) {
		super(provider, 0, message, cause);
	}

	@Override
	public boolean isRetryable() {
		return true;
	}

}
