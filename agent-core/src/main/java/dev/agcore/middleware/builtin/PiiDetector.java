package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Finds personal and secret data in text and applies a {@link PiiStrategy} per type.
 * Types are searched in a fixed priority order (API keys, emails, card numbers, phone
 * numbers), and a span already claimed by one type is not matched by a later one.
 */
final class PiiDetector {

	private static final List<PiiType> PRIORITY = List.of(PiiType.API_KEY, PiiType.EMAIL, PiiType.CREDIT_CARD,
			PiiType.PHONE);

	private static final List<Pattern> API_KEYS = List.of(
			Pattern.compile("\\b(?:sk|pk|rk)-[A-Za-z0-9][A-Za-z0-9_-]{19,}"),
			Pattern.compile("\\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
			Pattern.compile("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"), Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{36,}"),
			Pattern.compile("\\bgithub_pat_[A-Za-z0-9_]{22,}"), Pattern.compile("\\bxox[abposr]-[A-Za-z0-9-]{10,}"),
			Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}"), Pattern.compile("\\bglpat-[A-Za-z0-9_-]{20,}"),
			Pattern.compile("\\bhf_[A-Za-z0-9]{30,}"),
			// a long value after a telling word: only the value is replaced
			Pattern.compile("(?i)\\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret"
					+ "|private[_-]?key|password|passwd|token|secret)[\"']?\\s*[:=]\\s*[\"']?"
					+ "(?<value>[A-Za-z0-9_\\-./+=]{16,})"),
			Pattern.compile("(?i)\\bbearer\\s+(?<value>[A-Za-z0-9_\\-./+=]{16,})"));

	// linear in the input: bounded, possessive parts (RFC 5321 limits: 64 for the local part,
	// 63 per label) and no start inside a run, so no input backtracks or recurses deeply
	private static final Pattern EMAIL = Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}+@"
			+ "[A-Za-z0-9-]{1,63}+(?:\\.[A-Za-z0-9-]{1,63}+){0,8}\\.[A-Za-z]{2,24}+\\b");

	private static final Pattern CARD = Pattern.compile("(?<![\\d-])\\d(?:[ -]?\\d){12,18}(?![\\d-])");

	private static final Pattern PHONE = Pattern.compile("(?<![\\w+])(?:\\+\\d{1,3}[ .-]?)?(?:\\(\\d{1,4}\\)[ .-]?)?"
			+ "\\d{2,4}(?:[ .-]\\d{2,4}){1,4}(?![\\w@])|(?<![\\w+])\\+\\d{8,15}\\b");

	private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}|\\d{2}[.-]\\d{2}[.-]\\d{4}");

	private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(?:\\.\\d{1,3}){3}");

	/** The most characters of one message that are scanned; the rest is dropped. */
	static final int MAX_SCANNED_CHARS = 1 << 20;

	private final Map<PiiType, PiiStrategy> strategies;

	PiiDetector(Map<PiiType, PiiStrategy> strategies) {
		this.strategies = new EnumMap<>(strategies);
	}

	/**
	 * Apply the strategies to a text.
	 * @param text the text
	 * @param where where the text comes from, for the message of a blocked turn; null to
	 * redact values of blocked types instead of blocking
	 * @return the text with values redacted or masked; the same instance when none found
	 * @throws PiiDetectedException if a value of a blocked type is found
	 */
	String apply(String original, @Nullable String where) {
		String text = capped(original);
		List<Match> matches = find(text);
		if (matches.isEmpty()) {
			return text;
		}
		StringBuilder result = new StringBuilder(text.length());
		int position = 0;
		for (Match match : matches) {
			PiiStrategy strategy = this.strategies.get(match.type());
			if (strategy == PiiStrategy.BLOCK && where != null) {
				throw new PiiDetectedException(match.type(), where);
			}
			String value = text.substring(match.start(), match.end());
			result.append(text, position, match.start())
				.append((strategy == PiiStrategy.MASK) ? mask(match.type(), value) : match.type().placeholder());
			position = match.end();
		}
		return result.append(text, position, text.length()).toString();
	}

	/**
	 * Bound the work per message: the text beyond {@link #MAX_SCANNED_CHARS} is dropped,
	 * never passed on unscanned.
	 */
	static String capped(String text) {
		if (text.length() <= MAX_SCANNED_CHARS) {
			return text;
		}
		return text.substring(0, MAX_SCANNED_CHARS) + "[truncated: " + (text.length() - MAX_SCANNED_CHARS)
				+ " more characters were not checked for personal data]";
	}

	List<Match> find(CharSequence text) {
		// by start: an overlap check looks at the neighbours only, not at every match so far
		TreeMap<Integer, Match> found = new TreeMap<>();
		for (PiiType type : PRIORITY) {
			if (this.strategies.containsKey(type)) {
				for (Match match : candidates(type, text)) {
					if (!overlapsAny(found, match)) {
						found.put(match.start(), match);
					}
				}
			}
		}
		return new ArrayList<>(found.values());
	}

	private static boolean overlapsAny(TreeMap<Integer, Match> found, Match match) {
		Map.Entry<Integer, Match> before = found.floorEntry(match.start());
		Map.Entry<Integer, Match> after = found.ceilingEntry(match.start());
		return (before != null && before.getValue().overlaps(match))
				|| (after != null && after.getValue().overlaps(match));
	}

	private static List<Match> candidates(PiiType type, CharSequence text) {
		List<Match> matches = new ArrayList<>();
		switch (type) {
			case API_KEY -> {
				for (Pattern pattern : API_KEYS) {
					Matcher matcher = pattern.matcher(text);
					while (matcher.find()) {
						boolean keyed = pattern.pattern().contains("?<value>");
						int start = keyed ? matcher.start("value") : matcher.start();
						int end = keyed ? matcher.end("value") : matcher.end();
						if (!keyed || looksRandom(text.subSequence(start, end).toString())) {
							matches.add(new Match(start, end, type));
						}
					}
				}
			}
			case EMAIL -> addAll(matches, EMAIL.matcher(text), type);
			case CREDIT_CARD -> {
				Matcher matcher = CARD.matcher(text);
				while (matcher.find()) {
					if (luhn(digits(matcher.group()))) {
						matches.add(new Match(matcher.start(), matcher.end(), type));
					}
				}
			}
			case PHONE -> {
				Matcher matcher = PHONE.matcher(text);
				while (matcher.find()) {
					if (isPhone(matcher.group())) {
						matches.add(new Match(matcher.start(), matcher.end(), type));
					}
				}
			}
		}
		return matches;
	}

	private static void addAll(List<Match> matches, Matcher matcher, PiiType type) {
		while (matcher.find()) {
			matches.add(new Match(matcher.start(), matcher.end(), type));
		}
	}

	private static boolean isPhone(String candidate) {
		int digits = digits(candidate).length();
		if (digits < 7 || digits > 15 || DATE.matcher(candidate).matches() || IPV4.matcher(candidate).matches()) {
			return false;
		}
		// digits grouped by spaces alone are more often amounts ("10 000 000") than numbers to call
		boolean marked = candidate.startsWith("+") || candidate.contains("(") || candidate.contains("-")
				|| candidate.contains(".");
		return marked || digits >= 10;
	}

	/** Values after "token=" and the like count only if they mix letters and digits. */
	private static boolean looksRandom(String value) {
		return value.chars().anyMatch(Character::isDigit) && value.chars().anyMatch(Character::isLetter);
	}

	static boolean luhn(String digits) {
		if (digits.length() < 13 || digits.length() > 19) {
			return false;
		}
		int sum = 0;
		boolean twice = false;
		for (int i = digits.length() - 1; i >= 0; i--) {
			int digit = digits.charAt(i) - '0';
			if (twice) {
				digit *= 2;
				if (digit > 9) {
					digit -= 9;
				}
			}
			sum += digit;
			twice = !twice;
		}
		return sum % 10 == 0;
	}

	private static String digits(String text) {
		StringBuilder digits = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c >= '0' && c <= '9') {
				digits.append(c);
			}
		}
		return digits.toString();
	}

	static String mask(PiiType type, String value) {
		if (type == PiiType.EMAIL) {
			return "****" + value.substring(value.indexOf('@'));
		}
		String visible = (type == PiiType.API_KEY) ? value : digits(value);
		return "****" + visible.substring(Math.max(0, visible.length() - 4));
	}

	/** A value found in a text, from start (inclusive) to end (exclusive). */
	record Match(int start, int end, PiiType type) {

		boolean overlaps(Match other) {
			return this.start < other.end && other.start < this.end;
		}

	}

}
