package dev.agcore.model;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The provider is rate limiting the client (HTTP 429). Retryable, after the wait the
 * server asked for when it gave one.
 */
public class ModelRateLimitException extends ModelException {

	private final @Nullable Duration retryAfter;

	public ModelRateLimitException(String provider, String message, @Nullable Duration retryAfter) {
		super(provider, 429, message, null);
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
