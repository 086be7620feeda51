package dev.agcore.model;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The provider failed (HTTP 5xx, 408, 409). Retryable, after the wait the server asked for
 * when it gave one (a 503 often does).
 */
public class ModelServerException extends ModelException {

	private final @Nullable Duration retryAfter;

	public ModelServerException(String provider, int statusCode, String message) {
		this(provider, statusCode, message, null, null);
	}

	public ModelServerException(String provider, int statusCode, String message, @Nullable Throwable cause) {
		this(provider, statusCode, message, null, cause);
	}

	public ModelServerException(String provider, int statusCode, String message, @Nullable Duration retryAfter,
			@Nullable Throwable cause) {
		super(provider, statusCode, message, cause);
		this.retryAfter = retryAfter;
	}

	@Override
	public boolean isRetryable() {
		return true;
	}

	@Override
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

}
