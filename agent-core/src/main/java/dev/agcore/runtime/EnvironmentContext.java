package dev.agcore.runtime;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.TextStyle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The environment layer of an agent's system prompt: today's date, the user's locale and
 * facts the application configures, rendered on every model call as an
 * {@code <environment>} block. Nothing is shown unless asked for.
 *
 * @param date whether to show today's date
 * @param zone the time zone the date is taken in
 * @param locale whether to show the user's locale, when the request has one
 * ({@link AgentRequest#withLocale})
 * @param facts lines to show as {@code key: value}, in order, such as the shop's name
 * @since 0.1.0
 */
public record EnvironmentContext(boolean date, ZoneId zone, boolean locale, Map<String, String> facts) {

	/** No environment layer. */
	public static final EnvironmentContext NONE = new EnvironmentContext(false, ZoneId.of("UTC"), false, Map.of());

	public EnvironmentContext {
		Objects.requireNonNull(zone, "'zone' must not be null");
		facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
	}

	/** Return whether this shows anything. */
	public boolean isEmpty() {
		return !this.date && !this.locale && this.facts.isEmpty();
	}

	/**
	 * Render the block for one model call.
	 * @param userLocale the request's locale, or {@code null}
	 * @param clock the clock today's date is read from
	 * @return the block, empty text when there is nothing to show
	 */
	public String render(@Nullable Locale userLocale, Clock clock) {
		StringBuilder lines = new StringBuilder();
		if (this.date) {
			LocalDate today = LocalDate.now(clock.withZone(this.zone));
			lines.append("Today's date: ")
				.append(today)
				.append(" (")
				.append(today.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH))
				.append(")\n");
		}
		if (this.locale && userLocale != null) {
			lines.append("User locale: ").append(userLocale.toLanguageTag()).append('\n');
		}
		this.facts.forEach((key, value) -> lines.append(key).append(": ").append(value).append('\n'));
		return (lines.length() == 0) ? "" : "<environment>\n" + lines + "</environment>";
	}

}
