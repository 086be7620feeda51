package dev.agcore.resilience;

import java.time.Duration;

import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelServerException;
import io.github.resilience4j.core.functions.Either;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryBackoff}.
 */
class RetryBackoffTests {

	private static final RetrySettings NO_JITTER = RetrySettings.DEFAULTS.withJitter(0)
		.withInitialBackoff(Duration.ofMillis(100))
		.withMaxBackoff(Duration.ofMillis(350));

	@Test
	void growsExponentiallyUpToTheMaximum() {
		RetryBackoff backoff = new RetryBackoff(NO_JITTER);
		Either<Throwable, Object> failure = Either.left(new ModelServerException("openai", 500, "boom"));
		assertThat(backoff.apply(1, failure)).isEqualTo(100);
		assertThat(backoff.apply(2, failure)).isEqualTo(200);
		assertThat(backoff.apply(3, failure)).isEqualTo(350);
	}

	@Test
	void jitterStaysWithinTheRandomizationFactor() {
		RetryBackoff backoff = new RetryBackoff(RetrySettings.DEFAULTS);
		Either<Throwable, Object> failure = Either.left(new ModelServerException("openai", 500, "boom"));
		for (int i = 0; i < 100; i++) {
			assertThat(backoff.apply(1, failure)).isBetween(250L, 750L);
		}
	}

	@Test
	void serversRetryAfterReplacesTheBackoff() {
		RetryBackoff backoff = new RetryBackoff(NO_JITTER);
		assertThat(backoff.apply(1, Either.left(new ModelRateLimitException("openai", "slow", Duration.ofSeconds(2)))))
			.isEqualTo(2000);
		assertThat(backoff.apply(1, Either.left(new ModelRateLimitException("openai", "slow", Duration.ZERO))))
			.isEqualTo(0);
		assertThat(backoff.apply(1, Either.left(new ModelRateLimitException("openai", "slow", null)))).isEqualTo(100);
	}

	@Test
	void serversRetryAfterReplacesTheBackoffOfServerErrors() {
		RetryBackoff backoff = new RetryBackoff(NO_JITTER);
		ModelServerException unavailable = new ModelServerException("openai", 503, "busy", Duration.ofSeconds(3),
				null);
		assertThat(backoff.apply(1, Either.left(unavailable))).isEqualTo(3000);
	}

	@Test
	void serversRetryAfterIsCapped() {
		RetryBackoff backoff = new RetryBackoff(NO_JITTER.withMaxRetryAfter(Duration.ofSeconds(5)));
		assertThat(backoff.apply(1, Either.left(new ModelRateLimitException("openai", "slow", Duration.ofHours(1)))))
			.isEqualTo(5000);
	}

}
