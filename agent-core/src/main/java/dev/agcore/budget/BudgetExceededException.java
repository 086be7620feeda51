package dev.agcore.budget;

import java.time.Duration;
import java.util.Objects;

import dev.agcore.AgentException;

/**
 * A budget refused a turn, or the next model call of one, before the model was called.
 * Reported to HTTP callers as {@code 429 Too Many Requests} with a {@code Retry-After}
 * header and the code {@value #CODE}.
 *
 * @since 0.1.0
 */
public class BudgetExceededException extends AgentException {

	/** The error code of a refused turn. */
	public static final String CODE = "budget_exceeded";

	private final Budget.Limit limit;

	private final Duration retryAfter;

	public BudgetExceededException(String message, Budget.Limit limit, Duration retryAfter) {
		super(message);
		this.limit = Objects.requireNonNull(limit, "'limit' must not be null");
		this.retryAfter = Objects.requireNonNull(retryAfter, "'retryAfter' must not be null");
	}

	/**
	 * Return the limit that refused.
	 * @return the limit
	 */
	public Budget.Limit limit() {
		return this.limit;
	}

	/**
	 * Return how long until the limit lets a turn through again.
	 * @return the wait, at least one second
	 */
	public Duration retryAfter() {
		return this.retryAfter;
	}

	@Override
	public String errorCode() {
		return CODE;
	}

}
