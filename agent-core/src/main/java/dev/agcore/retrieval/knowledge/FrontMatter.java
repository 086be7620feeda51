package dev.agcore.retrieval.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The front matter of a Markdown file, the YAML-like block between two {@code ---} lines
 * at its top, read without a YAML library: {@code key: value} lines, lists as
 * {@code [a, b]} or {@code - a} lines under {@code key:}, indented lines continuing the
 * previous value, {@code #} comments. Enough for titles, summaries and tags.
 */
record FrontMatter(Map<String, String> values, Map<String, List<String>> lists, String body) {

	private static final String FENCE = "---";

	/**
	 * Split a file's text into its front matter and its body.
	 * @param text the text, with {@code \n} line ends
	 * @throws IllegalArgumentException if the front matter is not closed or a line is not
	 * understood
	 */
	static FrontMatter parse(String text) {
		if (!text.startsWith(FENCE) || !text.substring(0, lineEnd(text, 0)).strip().equals(FENCE)) {
			return new FrontMatter(Map.of(), Map.of(), text);
		}
		Map<String, String> values = new LinkedHashMap<>();
		Map<String, List<String>> lists = new LinkedHashMap<>();
		@Nullable String key = null;
		int lineNumber = 1;
		int start = lineEnd(text, 0) + 1;
		while (start <= text.length()) {
			int end = lineEnd(text, start);
			String line = text.substring(start, end);
			lineNumber++;
			String stripped = line.strip();
			if (stripped.equals(FENCE) || stripped.equals("...")) {
				String body = (end < text.length()) ? text.substring(end + 1) : "";
				return new FrontMatter(values, lists, body);
			}
			if (stripped.isEmpty() || stripped.startsWith("#")) {
				// blank or comment
			}
			else if (stripped.startsWith("- ") && key != null) {
				lists.computeIfAbsent(key, (k) -> new ArrayList<>()).add(unquote(stripped.substring(2)));
			}
			else if (Character.isWhitespace(line.charAt(0)) && key != null) {
				values.merge(key, stripped, (previous, more) -> previous.isEmpty() ? more : previous + " " + more);
			}
			else {
				int colon = line.indexOf(':');
				if (colon <= 0) {
					throw new IllegalArgumentException(
							"line " + lineNumber + " of the front matter is not 'key: value': " + shorten(stripped));
				}
				key = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
				String value = line.substring(colon + 1).strip();
				if (value.startsWith("[") && value.endsWith("]")) {
					lists.put(key, split(value.substring(1, value.length() - 1)));
				}
				else {
					values.put(key, unquote(value));
				}
			}
			start = end + 1;
		}
		throw new IllegalArgumentException("the front matter opened with '---' on line 1 is not closed with '---'");
	}

	/**
	 * Return a value.
	 * @param key the key, lower case
	 * @return the value; empty if there is none
	 */
	String value(String key) {
		return this.values.getOrDefault(key, "");
	}

	/**
	 * Return a list: {@code [a, b]}, {@code - a} lines, or a value split at commas.
	 * @param key the key, lower case
	 * @return the list; empty if there is none
	 */
	List<String> list(String key) {
		List<String> list = this.lists.get(key);
		if (list != null) {
			return list;
		}
		String value = this.values.get(key);
		return (value != null && !value.isBlank()) ? split(value) : List.of();
	}

	private static List<String> split(String values) {
		List<String> list = new ArrayList<>();
		for (String value : values.split(",")) {
			String unquoted = unquote(value.strip());
			if (!unquoted.isEmpty()) {
				list.add(unquoted);
			}
		}
		return list;
	}

	private static String unquote(String value) {
		String stripped = value.strip();
		if (stripped.length() >= 2 && (stripped.startsWith("\"") && stripped.endsWith("\"")
				|| stripped.startsWith("'") && stripped.endsWith("'"))) {
			return stripped.substring(1, stripped.length() - 1);
		}
		return stripped;
	}

	private static int lineEnd(String text, int start) {
		int end = text.indexOf('\n', start);
		return (end >= 0) ? end : text.length();
	}

	private static String shorten(String line) {
		return (line.length() <= 60) ? line : line.substring(0, 60) + "…";
	}

}
