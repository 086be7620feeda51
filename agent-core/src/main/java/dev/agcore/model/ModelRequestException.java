package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * The provider rejected the request as invalid (HTTP 400, 404, 422), for example an unknown model. Never retried.
 */
public class ModelRequestException extends ModelException {

	public ModelRequestException(String provider, int statusCode, String message) {
		super(provider, statusCode, message, null);
	}

	public ModelRequestException(String provider, int statusCode, String message, @Nullable Throwable cause) {
		super(provider, statusCode, message, cause);
	}

	@Override
	public boolean isRetryable() {
		return false;
	}

}
