package dev.agcore.resilience;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RetrySettings}.
 */
class RetrySettingsTests {

	@Test
	void defaults() {
		RetrySettings settings = RetrySettings.defaults();
		assertThat(settings.maxAttempts()).isEqualTo(3);
		assertThat(settings.initialBackoff()).isEqualTo(Duration.ofMillis(500));
		assertThat(settings.multiplier()).isEqualTo(2.0);
		assertThat(settings.maxBackoff()).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.jitter()).isEqualTo(0.5);
		assertThat(settings.maxRetryAfter()).isEqualTo(Duration.ofSeconds(60));
	}

	@Test
	void rejectsInvalidValuesNamingTheField() {
		RetrySettings settings = RetrySettings.DEFAULTS;
		assertThatIllegalArgumentException().isThrownBy(() -> settings.withMaxAttempts(0))
			.withMessageContaining("maxAttempts");
		assertThatIllegalArgumentException().isThrownBy(() -> settings.withInitialBackoff(Duration.ZERO))
			.withMessageContaining("initialBackoff");
		assertThatIllegalArgumentException().isThrownBy(() -> settings.withMaxBackoff(Duration.ofMillis(-1)))
			.withMessageContaining("maxBackoff");
		assertThatIllegalArgumentException().isThrownBy(() -> settings.withMaxRetryAfter(null))
			.withMessageContaining("maxRetryAfter");
		assertThatIllegalArgumentException().isThrownBy(() -> settings.withMultiplier(0.5))
			.withMessageContaining("multiplier");
		assertThatIllegalArgumentException().isThrownBy(() -> settings.withJitter(1.0)).withMessageContaining("jitter");
	}

	@Test
	void oneAttemptDisablesRetry() {
		assertThat(RetrySettings.DEFAULTS.withMaxAttempts(1).maxAttempts()).isEqualTo(1);
	}

}
