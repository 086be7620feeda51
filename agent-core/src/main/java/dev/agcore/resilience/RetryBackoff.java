package dev.agcore.resilience;

import java.time.Duration;
import java.util.Objects;

import dev.agcore.model.ModelException;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.core.functions.Either;

/**
 * Computes the wait before a retry: the server's {@code Retry-After} when the failure
 * carries one, whatever its status, otherwise an exponential backoff with jitter. A wait
 * longer than {@link RetrySettings#maxRetryAfter()} is not retried at all under
 * {@link RetryingChatModel#retryConfig}; should another configuration retry it, it is
 * capped there.
 */
public final class RetryBackoff implements IntervalBiFunction<Object> {

	private final IntervalFunction backoff;

	private final Duration maxRetryAfter;

	/**
	 * Create the backoff for the given settings.
	 * @param settings the settings
	 */
	public RetryBackoff(RetrySettings settings) {
		Objects.requireNonNull(settings, "'settings' must not be null");
		this.backoff = (settings.jitter() > 0)
				? IntervalFunction.ofExponentialRandomBackoff(settings.initialBackoff(), settings.multiplier(),
						settings.jitter(), settings.maxBackoff())
				: IntervalFunction.ofExponentialBackoff(settings.initialBackoff(), settings.multiplier(),
						settings.maxBackoff());
		this.maxRetryAfter = settings.maxRetryAfter();
	}

	/**
	 * Return the wait before the next attempt.
	 * @param attempt the number of attempts made so far, from 1
	 * @param outcome the failure (left) or result (right) of the last attempt
	 * @return the wait in milliseconds
	 */
	@Override
	public Long apply(Integer attempt, Either<Throwable, Object> outcome) {
		if (outcome.isLeft() && outcome.getLeft() instanceof ModelException ex && ex.retryAfter() != null) {
			Duration retryAfter = ex.retryAfter();
			return ((retryAfter.compareTo(this.maxRetryAfter) > 0) ? this.maxRetryAfter : retryAfter).toMillis();
		}
		return this.backoff.apply(attempt);
	}

}
