package dev.agcore.autoconfigure.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Types the values of {@code agent.providers.<name>.extra-body}: values bound from
 * properties files and environment variables are text, and servers reject "8192" where
 * they expect a number, so numbers and booleans are sent as such (YAML's are already
 * typed); lists, which the binder reads into maps keyed by index, are sent as lists.
 */
final class ExtraBody {

	private static final Pattern INTEGER = Pattern.compile("-?\\d{1,18}");

	private static final Pattern INDEX = Pattern.compile("(\\d+)|\\[(\\d+)]");

	private static final Pattern DECIMAL = Pattern.compile("-?\\d{1,18}\\.\\d{1,18}");

	private ExtraBody() {
	}

	static Map<String, Object> typed(Map<String, Object> extraBody) {
		Map<String, Object> typed = new LinkedHashMap<>();
		extraBody.forEach((key, value) -> typed.put(key, typedValue(value)));
		return typed;
	}

	/**
	 * The list a map stands for: the binder reads a YAML list (or {@code key[0]=...}
	 * properties) into a {@code Map<String, Object>} as a map keyed {@code 0}, {@code 1},
	 * ..., which would be sent as a JSON object.
	 */
	private static @Nullable List<Object> asList(Map<String, Object> map) {
		if (map.isEmpty()) {
			return null;
		}
		Object[] items = new Object[map.size()];
		for (Map.Entry<String, Object> entry : map.entrySet()) {
			Matcher index = INDEX.matcher(entry.getKey());
			if (!index.matches()) {
				return null;
			}
			String digits = (index.group(1) != null) ? index.group(1) : index.group(2);
			int position = (digits.length() <= 9) ? Integer.parseInt(digits) : -1;
			if (position < 0 || position >= items.length || items[position] != null) {
				return null;
			}
			items[position] = entry.getValue();
		}
		return Arrays.asList(items);
	}

	@SuppressWarnings("unchecked")
	private static @Nullable Object typedValue(@Nullable Object value) {
		if (value instanceof Map<?, ?> map) {
			List<Object> list = asList((Map<String, Object>) map);
			return (list != null) ? typedValue(list) : typed((Map<String, Object>) map);
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
