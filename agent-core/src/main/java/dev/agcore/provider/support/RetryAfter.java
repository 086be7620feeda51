package dev.agcore.provider.support;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Parses how long a server asked the client to wait before retrying.
 */
public final class RetryAfter {

	private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");

	private static final String GO_UNIT = "(h|ms|m|s|us|\u00b5s|\u03bcs|ns)";

	private static final Pattern GO_DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)" + GO_UNIT);

	private static final Pattern GO_DURATION = Pattern.compile("(?:\\d+(?:\\.\\d+)?" + GO_UNIT + ")+");

	private static final BigDecimal MAX_MILLIS = BigDecimal.valueOf(Long.MAX_VALUE);

	private RetryAfter() {
	}

	/**
	 * Return the wait the headers ask for: OpenAI's {@code retry-after-ms} when present,
	 * being more precise, otherwise the standard {@code Retry-After}.
	 * @param headers the response headers
	 * @return the wait, or null when no header gives a usable value
	 */
	public static @Nullable Duration fromHeaders(HttpHeaders headers) {
		Duration millis = parseMillis(headers.getFirst("retry-after-ms"));
		return (millis != null) ? millis : parse(headers.getFirst(HttpHeaders.RETRY_AFTER));
	}

	/**
	 * Return the wait the headers of a response with the given status ask for: as
	 * {@link #fromHeaders(HttpHeaders)}, and for a 429 without those headers the reset
	 * time of the exhausted limit in OpenAI's {@code x-ratelimit-reset-requests} /
	 * {@code x-ratelimit-reset-tokens} (the longer one when neither
	 * {@code x-ratelimit-remaining-*} says which is exhausted), else the reset instant of
	 * Anthropic's exhausted {@code anthropic-ratelimit-*} limits. Other statuses ignore the
	 * reset headers, which every response of these providers carries.
	 * @param headers the response headers
	 * @param statusCode the HTTP status
	 * @return the wait, or null when no header gives a usable value
	 */
	public static @Nullable Duration fromHeaders(HttpHeaders headers, int statusCode) {
		Duration wait = fromHeaders(headers);
		if (wait != null || statusCode != 429) {
			return wait;
		}
		Duration reset = fromRateLimitReset(headers);
		return (reset != null) ? reset : AnthropicRateLimitReset.fromHeaders(headers, Clock.systemUTC());
	}

	/**
	 * Return the wait until the exhausted rate limit resets, from OpenAI's
	 * {@code x-ratelimit-reset-requests} and {@code x-ratelimit-reset-tokens}: the reset
	 * of each limit whose {@code x-ratelimit-remaining-*} is 0, or of both when none is,
	 * the longer one winning.
	 * @param headers the response headers
	 * @return the wait, or null when no reset header is usable
	 */
	public static @Nullable Duration fromRateLimitReset(HttpHeaders headers) {
		Duration requests = parseGoDuration(headers.getFirst("x-ratelimit-reset-requests"));
		Duration tokens = parseGoDuration(headers.getFirst("x-ratelimit-reset-tokens"));
		boolean requestsExhausted = isZero(headers.getFirst("x-ratelimit-remaining-requests"));
		boolean tokensExhausted = isZero(headers.getFirst("x-ratelimit-remaining-tokens"));
		if (requestsExhausted || tokensExhausted) {
			return longer(requestsExhausted ? requests : null, tokensExhausted ? tokens : null);
		}
		return longer(requests, tokens);
	}

	/**
	 * Parse a duration as OpenAI's rate-limit headers write it, in Go's format:
	 * {@code 1s}, {@code 6m0s}, {@code 20ms}, {@code 1h2m3.5s}.
	 * @param value the value
	 * @return the duration, rounded up to milliseconds, or null when unparseable
	 */
	public static @Nullable Duration parseGoDuration(@Nullable String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		String trimmed = value.strip();
		if (!GO_DURATION.matcher(trimmed).matches()) {
			return null;
		}
		BigDecimal nanos = BigDecimal.ZERO;
		Matcher part = GO_DURATION_PART.matcher(trimmed);
		while (part.find()) {
			BigDecimal amount = new BigDecimal(part.group(1));
			nanos = nanos.add(amount.multiply(nanosPer(part.group(2))));
		}
		return toDuration(nanos.movePointLeft(6));
	}

	private static BigDecimal nanosPer(String unit) {
		return switch (unit) {
			case "h" -> BigDecimal.valueOf(3_600_000_000_000L);
			case "m" -> BigDecimal.valueOf(60_000_000_000L);
			case "s" -> BigDecimal.valueOf(1_000_000_000L);
			case "ms" -> BigDecimal.valueOf(1_000_000L);
			case "us", "\u00b5s", "\u03bcs" -> BigDecimal.valueOf(1_000L);
			default -> BigDecimal.ONE;
		};
	}

	private static boolean isZero(@Nullable String value) {
		return value != null && value.strip().equals("0");
	}

	private static @Nullable Duration longer(@Nullable Duration a, @Nullable Duration b) {
		if (a == null) {
			return b;
		}
		return (b == null || a.compareTo(b) >= 0) ? a : b;
	}

	/**
	 * Parse a {@code Retry-After} value against the system clock.
	 * @param value delta-seconds (possibly fractional) or an RFC 1123 HTTP-date
	 * @return the wait, zero when it lies in the past, or null when unparseable
	 */
	public static @Nullable Duration parse(@Nullable String value) {
		return parse(value, Clock.systemUTC());
	}

	/**
	 * Parse a {@code Retry-After} value.
	 * @param value delta-seconds (possibly fractional) or an RFC 1123 HTTP-date
	 * @param clock the clock an HTTP-date is measured against
	 * @return the wait, zero when it lies in the past, or null when unparseable
	 */
	public static @Nullable Duration parse(@Nullable String value, Clock clock) {
		if (value == null || value.isBlank()) {
			return null;
		}
		String trimmed = value.trim();
		if (NUMBER.matcher(trimmed).matches()) {
			return toDuration(new BigDecimal(trimmed).movePointRight(3));
		}
		try {
			ZonedDateTime date = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME);
			Duration wait = Duration.between(clock.instant(), date.toInstant());
			return wait.isNegative() ? Duration.ZERO : wait;
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

	/**
	 * Parse a wait in (possibly fractional) milliseconds, as in {@code retry-after-ms}.
	 * @param value the value
	 * @return the wait, zero when negative, or null when unparseable
	 */
	public static @Nullable Duration parseMillis(@Nullable String value) {
		if (value == null || !NUMBER.matcher(value.trim()).matches()) {
			return null;
		}
		return toDuration(new BigDecimal(value.trim()));
	}

	/**
	 * Format a wait for a message: whole seconds as {@code 3600 s}, other waits under ten
	 * seconds in milliseconds, such as {@code 1500 ms}, longer ones rounded up to seconds.
	 * @param wait the wait
	 * @return the text
	 */
	public static String format(Duration wait) {
		long millis = wait.toMillis();
		if (millis % 1000 == 0) {
			return (millis / 1000) + " s";
		}
		// a wait from an HTTP date is counted to the millisecond; past a few seconds those
		// digits only hide its size
		return (millis >= 10_000) ? ((millis + 999) / 1000) + " s" : millis + " ms";
	}

	private static Duration toDuration(BigDecimal millis) {
		if (millis.signum() <= 0) {
			return Duration.ZERO;
		}
		// round up: waiting a little too long is harmless, too short is another 429
		return Duration.ofMillis(millis.min(MAX_MILLIS).setScale(0, RoundingMode.CEILING).longValueExact());
	}

}
