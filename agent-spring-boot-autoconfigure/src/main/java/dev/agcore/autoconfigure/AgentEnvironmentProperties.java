package dev.agcore.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The environment layer of an agent's system prompt: an {@code <environment>} block with
 * today's date, the user's locale and configured facts, rendered on every model call.
 * Nothing is shown unless asked for.
 *
 * @since 0.1.0
 */
public class AgentEnvironmentProperties {

	/**
	 * Whether to tell the model today's date, in time-zone.
	 */
	private boolean date;

	/**
	 * Time zone of the date, such as Europe/Berlin. UTC when not set.
	 */
	private @Nullable String timeZone;

	/**
	 * Whether to tell the model the user's locale, when the request has one (the
	 * 'locale' field or Accept-Language header over HTTP, AgentRequest.withLocale in
	 * Java).
	 */
	private boolean locale;

	/**
	 * Lines shown as "key: value", in order, such as the shop's name or the support hours.
	 */
	private Map<String, String> facts = new LinkedHashMap<>();

	public boolean isDate() {
		return this.date;
	}

	public void setDate(boolean date) {
		this.date = date;
	}

	public @Nullable String getTimeZone() {
		return this.timeZone;
	}

	public void setTimeZone(@Nullable String timeZone) {
		this.timeZone = timeZone;
	}

	public boolean isLocale() {
		return this.locale;
	}

	public void setLocale(boolean locale) {
		this.locale = locale;
	}

	public Map<String, String> getFacts() {
		return this.facts;
	}

	public void setFacts(Map<String, String> facts) {
		this.facts = facts;
	}

}
