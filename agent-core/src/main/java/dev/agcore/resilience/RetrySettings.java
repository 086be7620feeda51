package dev.agcore.resilience;

import java.time.Duration;

/**
 * How a {@link RetryingChatModel} retries.
 *
 * @param maxAttempts the total number of attempts, the first included; 1 disables retry
 * @param initialBackoff the wait before the first retry
 * @param multiplier the factor by which the wait grows with each retry, at least 1
 * @param maxBackoff the longest computed wait
 * @param jitter the randomization factor applied to each computed wait, in [0, 1): 0.5
 * waits between half and one and a half times the computed value
 * @param maxRetryAfter the longest wait a server's {@code Retry-After} may ask for: a call
 * whose server asks for longer fails at once rather than retrying early into another
 * refusal
 */
public record RetrySettings(int maxAttempts, Duration initialBackoff, double multiplier, Duration maxBackoff,
		double jitter, Duration maxRetryAfter) {

	/** Three attempts, 500 ms doubling up to 30 s, jitter 0.5, Retry-After up to 60 s. */
	public static final RetrySettings DEFAULTS = new RetrySettings(3, Duration.ofMillis(500), 2.0,
			Duration.ofSeconds(30), 0.5, Duration.ofSeconds(60));

	public RetrySettings {
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("'maxAttempts' must be at least 1, was " + maxAttempts);
		}
		requirePositive(initialBackoff, "initialBackoff");
		requirePositive(maxBackoff, "maxBackoff");
		requirePositive(maxRetryAfter, "maxRetryAfter");
		if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
			throw new IllegalArgumentException("'multiplier' must be at least 1.0, was " + multiplier);
		}
		if (!(jitter >= 0.0 && jitter < 1.0)) {
			throw new IllegalArgumentException("'jitter' must be in [0, 1), was " + jitter);
		}
	}

	/**
	 * Return the default settings.
	 * @return {@link #DEFAULTS}
	 */
	public static RetrySettings defaults() {
		return DEFAULTS;
	}

	public RetrySettings withMaxAttempts(int maxAttempts) {
		return new RetrySettings(maxAttempts, this.initialBackoff, this.multiplier, this.maxBackoff, this.jitter,
				this.maxRetryAfter);
	}

	public RetrySettings withInitialBackoff(Duration initialBackoff) {
		return new RetrySettings(this.maxAttempts, initialBackoff, this.multiplier, this.maxBackoff, this.jitter,
				this.maxRetryAfter);
	}

	public RetrySettings withMultiplier(double multiplier) {
		return new RetrySettings(this.maxAttempts, this.initialBackoff, multiplier, this.maxBackoff, this.jitter,
				this.maxRetryAfter);
	}

	public RetrySettings withMaxBackoff(Duration maxBackoff) {
		return new RetrySettings(this.maxAttempts, this.initialBackoff, this.multiplier, maxBackoff, this.jitter,
				this.maxRetryAfter);
	}

	public RetrySettings withJitter(double jitter) {
		return new RetrySettings(this.maxAttempts, this.initialBackoff, this.multiplier, this.maxBackoff, jitter,
				this.maxRetryAfter);
	}

	public RetrySettings withMaxRetryAfter(Duration maxRetryAfter) {
		return new RetrySettings(this.maxAttempts, this.initialBackoff, this.multiplier, this.maxBackoff, this.jitter,
				maxRetryAfter);
	}

	private static void requirePositive(Duration value, String name) {
		if (value == null) {
			throw new IllegalArgumentException("'" + name + "' must not be null");
		}
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException("'" + name + "' must be positive, was " + value);
		}
	}

}
