package dev.agcore.tool.secret;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds resolved secrets in a text in the forms a tool is likely to give them back in,
 * and puts their placeholders in their place:
 * <ul>
 * <li>as they are;</li>
 * <li>escaped for JSON, JavaScript or Java, at any depth ({@code \"}, {@code \\},
 * {@code \/}, {@code \n}, {@code \u00e9} in either case, and escaped again);</li>
 * <li>URL-encoded ({@code %C3%A9} in either case, {@code +} for a space);</li>
 * <li>Base64-encoded, standard or URL-safe, alone or inside a longer encoded value (such
 * as a {@code Basic} authorization), for secrets long enough that the encoded part
 * cannot be mistaken for other data.</li>
 * </ul>
 * The escaped and URL-encoded forms may be mixed character by character. Other
 * transformations (hex, hashes, compression, a secret cut into pieces) are not found.
 */
final class SecretScrubber {

	static final SecretScrubber NONE = new SecretScrubber(List.of());

	// shorter encoded pieces could be chance matches in unrelated Base64 data
	private static final int MIN_BASE64_LENGTH = 8;

	private static final Base64.Encoder STANDARD = Base64.getEncoder().withoutPadding();

	private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

	private final List<Form> forms;

	private SecretScrubber(List<Form> forms) {
		this.forms = forms;
	}

	/**
	 * Create a scrubber.
	 * @param secrets each secret value and the placeholder to put in its place
	 * @return the scrubber
	 */
	static SecretScrubber of(Map<String, String> secrets) {
		if (secrets.isEmpty()) {
			return NONE;
		}
		List<Map.Entry<String, String>> longestFirst = new ArrayList<>(secrets.entrySet());
		longestFirst.sort(Comparator.comparingInt((Map.Entry<String, String> entry) -> entry.getKey().length())
			.reversed());
		List<Form> forms = new ArrayList<>(longestFirst.size());
		for (Map.Entry<String, String> secret : longestFirst) {
			forms.add(new Form(pattern(secret.getKey()), Matcher.quoteReplacement(secret.getValue())));
		}
		return new SecretScrubber(List.copyOf(forms));
	}

	String scrub(String text) {
		String scrubbed = text;
		for (Form form : this.forms) {
			Matcher matcher = form.pattern().matcher(scrubbed);
			if (matcher.find()) {
				scrubbed = matcher.replaceAll(form.replacement());
			}
		}
		return scrubbed;
	}

	static Pattern pattern(String secret) {
		StringBuilder encoded = new StringBuilder(secret.length() * 24);
		secret.codePoints().forEach((codePoint) -> encoded.append(codePoint(codePoint)));
		List<String> alternatives = new ArrayList<>();
		alternatives.add(encoded.toString());
		for (String piece : base64(secret.getBytes(StandardCharsets.UTF_8))) {
			alternatives.add(Pattern.quote(piece));
		}
		return Pattern.compile(String.join("|", alternatives));
	}

	// every way one character may be written: as is, escaped (at any depth), URL-encoded
	private static String codePoint(int codePoint) {
		List<String> ways = new ArrayList<>(4);
		String literal = new String(Character.toChars(codePoint));
		switch (codePoint) {
			case '\\' -> ways.add("\\\\+");
			case '"', '\'', '/' -> ways.add("\\\\*" + Pattern.quote(literal));
			case '\b' -> ways.add("\\x08|\\\\+b");
			case '\f' -> ways.add("\\f|\\\\+f");
			case '\n' -> ways.add("\\n|\\\\+n");
			case '\r' -> ways.add("\\r|\\\\+r");
			case '\t' -> ways.add("\\t|\\\\+t");
			case ' ' -> ways.add(" |\\+");
			default -> ways.add(Pattern.quote(literal));
		}
		StringBuilder unicode = new StringBuilder();
		for (char unit : Character.toChars(codePoint)) {
			unicode.append("\\\\+u(?i:").append(String.format(Locale.ROOT, "%04x", (int) unit)).append(')');
		}
		ways.add(unicode.toString());
		StringBuilder percent = new StringBuilder();
		for (byte b : literal.getBytes(StandardCharsets.UTF_8)) {
			percent.append("%(?i:").append(String.format(Locale.ROOT, "%02x", b & 0xff)).append(')');
		}
		ways.add(percent.toString());
		return "(?:" + String.join("|", ways) + ")";
	}

	/**
	 * Return the parts of the Base64 encodings of a value that depend on its bytes
	 * alone, for each of the three positions it can start at inside a longer value.
	 */
	static List<String> base64(byte[] value) {
		List<String> pieces = new ArrayList<>(6);
		for (int offset = 0; offset < 3; offset++) {
			byte[] shifted = new byte[offset + value.length];
			System.arraycopy(value, 0, shifted, offset, value.length);
			// characters whose 6 bits lie wholly within the value
			int first = (offset * 8 + 5) / 6;
			int last = (shifted.length * 8) / 6;
			if (last - first < MIN_BASE64_LENGTH) {
				continue;
			}
			String standard = STANDARD.encodeToString(shifted).substring(first, last);
			pieces.add(standard);
			String urlSafe = URL_SAFE.encodeToString(shifted).substring(first, last);
			if (!urlSafe.equals(standard)) {
				pieces.add(urlSafe);
			}
		}
		return pieces;
	}

	private record Form(Pattern pattern, String replacement) {

		// the pattern spells the secret out
		@Override
		public String toString() {
			return "Form " + this.replacement;
		}

	}

}
