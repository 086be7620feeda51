package dev.agcore.provider.support;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Parses how long a server asked the client to wait before retrying.
 */
public final class RetryAfter {

	private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");

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
