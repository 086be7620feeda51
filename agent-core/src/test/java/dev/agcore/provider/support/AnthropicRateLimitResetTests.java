package dev.agcore.provider.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

class AnthropicRateLimitResetTests {

	private final Clock clock = Clock.fixed(Instant.parse("2025-01-01T12:00:00Z"), ZoneOffset.UTC);

	@Test
	void waitsForTheLatestResetOfTheExhaustedLimits() {
		HttpHeaders headers = new HttpHeaders();
		headers.add("anthropic-ratelimit-requests-remaining", "0");
		headers.add("anthropic-ratelimit-requests-reset", "2025-01-01T12:00:20Z");
		headers.add("anthropic-ratelimit-input-tokens-remaining", "0");
		headers.add("anthropic-ratelimit-input-tokens-reset", "2025-01-01T12:00:45Z");
		// not exhausted: its later reset does not matter
		headers.add("anthropic-ratelimit-output-tokens-remaining", "100");
		headers.add("anthropic-ratelimit-output-tokens-reset", "2025-01-01T12:05:00Z");

		assertThat(AnthropicRateLimitReset.fromHeaders(headers, this.clock)).isEqualTo(Duration.ofSeconds(45));
	}

	@Test
	void noExhaustedLimitGivesNoWait() {
		HttpHeaders headers = new HttpHeaders();
		headers.add("anthropic-ratelimit-requests-remaining", "3");
		headers.add("anthropic-ratelimit-requests-reset", "2025-01-01T12:00:20Z");

		assertThat(AnthropicRateLimitReset.fromHeaders(headers, this.clock)).isNull();
		assertThat(AnthropicRateLimitReset.fromHeaders(new HttpHeaders(), this.clock)).isNull();
	}

	@Test
	void parsesOffsetsAndFractionsAndClampsThePast() {
		assertThat(AnthropicRateLimitReset.parse("2025-01-01T13:00:01.5+01:00", this.clock))
			.isEqualTo(Duration.ofMillis(1500));
		assertThat(AnthropicRateLimitReset.parse("2024-12-31T00:00:00Z", this.clock)).isEqualTo(Duration.ZERO);
	}

	@Test
	void garbageIsIgnored() {
		HttpHeaders headers = new HttpHeaders();
		headers.add("anthropic-ratelimit-tokens-remaining", "0");
		headers.add("anthropic-ratelimit-tokens-reset", "soon");

		assertThat(AnthropicRateLimitReset.fromHeaders(headers, this.clock)).isNull();
		assertThat(AnthropicRateLimitReset.parse("2025-01-01T12:00:20Z" + " ".repeat(100) + "x", this.clock)).isNull();
		assertThat(AnthropicRateLimitReset.parse(null, this.clock)).isNull();
	}

}
