package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * The provider rejected the credentials (HTTP 401 or 403). Never retried: fix the API key.
 */
public class ModelAuthenticationException extends ModelException {

	public ModelAuthenticationException(String provider, int statusCode, String message) {
		super(provider, statusCode, message, null);
	}

	public ModelAuthenticationException(String provider, int statusCode, String message, @Nullable Throwable cause) {
		super(provider, statusCode, message, cause);
	}

	@Override
	public boolean isRetryable() {
		return false;
	}

}
