package dev.agcore.model;

import java.time.Duration;

import dev.agcore.AgentException;
import org.jspecify.annotations.Nullable;

/**
 * A model call failed. Subtypes say what happened; {@link #isRetryable()} says whether
 * trying again can help.
 */
public abstract class ModelException extends AgentException {

	private final String provider;

	private final int statusCode;

	protected ModelException(String provider, int statusCode, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.provider = provider;
		this.statusCode = statusCode;
	}

	/**
	 * Return the provider that failed, such as {@code openai}.
	 * @return the provider name
	 */
	public String provider() {
		return this.provider;
	}

	/**
	 * Return the HTTP status of the failed call, or 0 when there was no HTTP response.
	 * @return the status code
	 */
	public int statusCode() {
		return this.statusCode;
	}

	/**
	 * Return whether the same request may succeed if sent again.
	 * @return whether to retry
	 */
	public abstract boolean isRetryable();

	/**
	 * Return how long the server asked the client to wait before retrying, from its
	 * {@code Retry-After} or {@code retry-after-ms} header.
	 * @return the wait, or null when the server did not say
	 */
	public @Nullable Duration retryAfter() {
		return null;
	}

}
