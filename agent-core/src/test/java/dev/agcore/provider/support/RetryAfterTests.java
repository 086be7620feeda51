package dev.agcore.provider.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfter}.
 */
class RetryAfterTests {

	private static final Clock CLOCK = Clock.fixed(Instant.parse("2015-10-21T07:28:00Z"), ZoneOffset.UTC);

	@Test
	void parsesDeltaSeconds() {
		assertThat(RetryAfter.parse("1")).isEqualTo(Duration.ofSeconds(1));
		assertThat(RetryAfter.parse(" 120 ")).isEqualTo(Duration.ofSeconds(120));
		assertThat(RetryAfter.parse("0")).isEqualTo(Duration.ZERO);
	}

	@Test
	void parsesFractionalSeconds() {
		assertThat(RetryAfter.parse("1.5")).isEqualTo(Duration.ofMillis(1500));
		assertThat(RetryAfter.parse("0.0004")).isEqualTo(Duration.ofMillis(1));
		assertThat(RetryAfter.parse(".25")).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	void negativeBecomesZero() {
		assertThat(RetryAfter.parse("-5")).isEqualTo(Duration.ZERO);
	}

	@Test
	void hugeValueDoesNotOverflow() {
		assertThat(RetryAfter.parse("99999999999999999999999")).isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
	}

	@Test
	void formatsWholeSecondsAsSecondsAndTheRestAsMilliseconds() {
		assertThat(RetryAfter.format(Duration.ofHours(1))).isEqualTo("3600 s");
		assertThat(RetryAfter.format(Duration.ofMillis(1500))).isEqualTo("1500 ms");
		assertThat(RetryAfter.format(Duration.ZERO)).isEqualTo("0 s");
		// as an HTTP date yields: rounded up to whole seconds past ten
		assertThat(RetryAfter.format(Duration.ofMillis(17_053_493))).isEqualTo("17054 s");
	}

	@Test
	void parsesHttpDate() {
		assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:30 GMT", CLOCK)).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void httpDateInThePastBecomesZero() {
		assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:00:00 GMT", CLOCK)).isEqualTo(Duration.ZERO);
	}

	@Test
	void unparseableIsNull() {
		assertThat(RetryAfter.parse(null)).isNull();
		assertThat(RetryAfter.parse("")).isNull();
		assertThat(RetryAfter.parse("soon")).isNull();
		assertThat(RetryAfter.parse("1s")).isNull();
		assertThat(RetryAfter.parse("21 Oct 2015")).isNull();
	}

	@Test
	void prefersRetryAfterMsHeader() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("Retry-After", "2");
		assertThat(RetryAfter.fromHeaders(headers)).isEqualTo(Duration.ofSeconds(2));
		headers.set("retry-after-ms", "1250.5");
		assertThat(RetryAfter.fromHeaders(headers)).isEqualTo(Duration.ofMillis(1251));
		assertThat(RetryAfter.fromHeaders(new HttpHeaders())).isNull();
	}

	@Test
	void parsesGoDurationsOfRateLimitHeaders() {
		assertThat(RetryAfter.parseGoDuration("1s")).isEqualTo(Duration.ofSeconds(1));
		assertThat(RetryAfter.parseGoDuration("6m0s")).isEqualTo(Duration.ofMinutes(6));
		assertThat(RetryAfter.parseGoDuration("20ms")).isEqualTo(Duration.ofMillis(20));
		assertThat(RetryAfter.parseGoDuration("1h2m3.5s")).isEqualTo(Duration.ofMillis(3_723_500));
		assertThat(RetryAfter.parseGoDuration("59.88s")).isEqualTo(Duration.ofMillis(59_880));
		assertThat(RetryAfter.parseGoDuration("1.2345s")).isEqualTo(Duration.ofMillis(1235));
		assertThat(RetryAfter.parseGoDuration("1500us")).isEqualTo(Duration.ofMillis(2));
	}

	@Test
	void rejectsWhatIsNoGoDuration() {
		assertThat(RetryAfter.parseGoDuration(null)).isNull();
		assertThat(RetryAfter.parseGoDuration("")).isNull();
		assertThat(RetryAfter.parseGoDuration("5")).isNull();
		assertThat(RetryAfter.parseGoDuration("1s junk")).isNull();
		assertThat(RetryAfter.parseGoDuration("s")).isNull();
		assertThat(RetryAfter.parseGoDuration("1d")).isNull();
	}

	@Test
	void rateLimitResetGivesTheWaitOfA429WithoutRetryAfter() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("x-ratelimit-remaining-requests", "0");
		headers.set("x-ratelimit-remaining-tokens", "149984");
		headers.set("x-ratelimit-reset-requests", "20s");
		headers.set("x-ratelimit-reset-tokens", "6m0s");
		// the requests limit is the one exhausted: its reset counts, not the longer one
		assertThat(RetryAfter.fromHeaders(headers, 429)).isEqualTo(Duration.ofSeconds(20));
		// every OpenAI response carries these headers: only a 429 reads them
		assertThat(RetryAfter.fromHeaders(headers, 500)).isNull();
		assertThat(RetryAfter.fromHeaders(headers)).isNull();
	}

	@Test
	void rateLimitResetTakesTheLongerWhenNoLimitIsAtZero() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("x-ratelimit-reset-requests", "1s");
		headers.set("x-ratelimit-reset-tokens", "7.66s");
		assertThat(RetryAfter.fromHeaders(headers, 429)).isEqualTo(Duration.ofMillis(7660));
		headers.set("x-ratelimit-remaining-tokens", "0");
		headers.set("x-ratelimit-remaining-requests", "0");
		assertThat(RetryAfter.fromHeaders(headers, 429)).isEqualTo(Duration.ofMillis(7660));
	}

	@Test
	void retryAfterWinsOverRateLimitReset() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("x-ratelimit-reset-requests", "20s");
		headers.set("Retry-After", "3");
		assertThat(RetryAfter.fromHeaders(headers, 429)).isEqualTo(Duration.ofSeconds(3));
		headers.set("retry-after-ms", "250");
		assertThat(RetryAfter.fromHeaders(headers, 429)).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	void noRateLimitHeadersGiveNoWait() {
		assertThat(RetryAfter.fromHeaders(new HttpHeaders(), 429)).isNull();
		HttpHeaders headers = new HttpHeaders();
		headers.set("x-ratelimit-reset-tokens", "soon");
		assertThat(RetryAfter.fromHeaders(headers, 429)).isNull();
	}

	@Test
	void anthropicResetGivesTheWaitOfA429WithoutRetryAfter() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("anthropic-ratelimit-tokens-remaining", "0");
		headers.set("anthropic-ratelimit-tokens-reset",
				java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).plusMinutes(10).toString());
		headers.set("anthropic-ratelimit-requests-remaining", "40");
		headers.set("anthropic-ratelimit-requests-reset", "2020-01-01T00:00:00Z");
		// the exhausted tokens limit resets in about ten minutes; the requests limit is not exhausted
		assertThat(RetryAfter.fromHeaders(headers, 429)).isBetween(Duration.ofMinutes(9), Duration.ofMinutes(10));
		assertThat(RetryAfter.fromHeaders(headers, 500)).isNull();
		headers.set("retry-after", "7");
		assertThat(RetryAfter.fromHeaders(headers, 429)).isEqualTo(Duration.ofSeconds(7));
	}

}
