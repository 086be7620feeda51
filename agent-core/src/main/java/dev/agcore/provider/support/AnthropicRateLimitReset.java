package dev.agcore.provider.support;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Reads when Anthropic's exhausted rate limits reset, from the
 * {@code anthropic-ratelimit-<kind>-remaining} and {@code anthropic-ratelimit-<kind>-reset}
 * headers (the reset an RFC 3339 instant), for a retry when the response has no
 * {@code retry-after}.
 */
public final class AnthropicRateLimitReset {

	private static final String[] KINDS = { "requests", "tokens", "input-tokens", "output-tokens" };

	// an RFC 3339 instant is about 30 characters; anything much longer is not one
	private static final int MAX_LENGTH = 64;

	private AnthropicRateLimitReset() {
	}

	/**
	 * Return the wait until every exhausted limit has reset: the latest reset among the
	 * kinds whose {@code -remaining} header is {@code 0}.
	 * @param headers the response headers
	 * @param clock the clock the instants are measured against
	 * @return the wait, zero when the resets lie in the past, or null when no limit is
	 * exhausted or no exhausted limit gives a usable reset
	 */
	public static @Nullable Duration fromHeaders(HttpHeaders headers, Clock clock) {
		Duration longest = null;
		for (String kind : KINDS) {
			String remaining = headers.getFirst("anthropic-ratelimit-" + kind + "-remaining");
			if (remaining == null || !remaining.strip().equals("0")) {
				continue;
			}
			Duration wait = parse(headers.getFirst("anthropic-ratelimit-" + kind + "-reset"), clock);
			if (wait != null && (longest == null || wait.compareTo(longest) > 0)) {
				longest = wait;
			}
		}
		return longest;
	}

	/**
	 * Parse a reset instant.
	 * @param value an RFC 3339 date-time, such as {@code 2025-01-01T12:00:30Z}
	 * @param clock the clock it is measured against
	 * @return the wait, zero when it lies in the past, or null when unparseable
	 */
	public static @Nullable Duration parse(@Nullable String value, Clock clock) {
		if (value == null || value.isBlank() || value.length() > MAX_LENGTH) {
			return null;
		}
		try {
			Duration wait = Duration.between(clock.instant(), OffsetDateTime.parse(value.strip()).toInstant());
			return wait.isNegative() ? Duration.ZERO : wait;
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

}
