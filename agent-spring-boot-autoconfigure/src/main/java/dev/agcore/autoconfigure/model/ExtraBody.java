package dev.agcore.autoconfigure.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Types the values of {@code agent.providers.<name>.extra-body}: values bound from
 * properties files and environment variables are text, and servers reject "8192" where
 * they expect a number, so numbers and booleans are sent as such (YAML's are already
 * typed).
 */
final class ExtraBody {

	private static final Pattern INTEGER = Pattern.compile("-?\\d{1,18}");

	private static final Pattern DECIMAL = Pattern.compile("-?\\d{1,18}\\.\\d{1,18}");

	private ExtraBody() {
	}

	static Map<String, Object> typed(Map<String, Object> extraBody) {
		Map<String, Object> typed = new LinkedHashMap<>();
		extraBody.forEach((key, value) -> typed.put(key, typedValue(value)));
		return typed;
	}

	@SuppressWarnings("unchecked")
	private static @Nullable Object typedValue(@Nullable Object value) {
		if (value instanceof Map<?, ?> map) {
			return typed((Map<String, Object>) map);
		}
		if (value instanceof List<?> list) {
			return list.stream().map(ExtraBody::typedValue).toList();
		}
		if (value instanceof String text) {
			if (text.equals("true") || text.equals("false")) {
				return Boolean.valueOf(text);
			}
			if (INTEGER.matcher(text).matches()) {
				return Long.valueOf(text);
			}
			if (DECIMAL.matcher(text).matches()) {
				return Double.valueOf(text);
			}
		}
		return value;
	}

}
