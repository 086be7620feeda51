package dev.agcore.tool.secret;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds resolved secrets in a text in the forms a tool is likely to give them back in,
 * and puts their placeholders in their place:
 * <ul>
 * <li>as they are;</li>
 * <li>escaped as JSON writers do (Jackson, Gson, {@code JSON.stringify}...): {@code \"},
 * {@code \\}, {@code \n} and the like, with or without {@code \/}, with non-ASCII
 * characters as they are or as {@code \u00e9} or {@code \u00E9}; once, or twice for JSON
 * inside JSON;</li>
 * <li>URL-encoded, with {@code +} or {@code %20} for a space, in upper or lower case
 * hex;</li>
 * <li>Base64-encoded, standard or URL-safe, alone or inside a longer encoded value (such
 * as a {@code Basic} authorization), for secrets long enough that the encoded part
 * cannot be mistaken for other data.</li>
 * </ul>
 * Each form is looked for as a plain string, so scrubbing is linear in the text and
 * safe for secrets of any length. Other transformations (hex, hashes, compression, a
 * secret cut into pieces, an encoding mixed within one secret) are not found.
 */
final class SecretScrubber {

	static final SecretScrubber NONE = new SecretScrubber(Map.of());

	// shorter encoded pieces could be chance matches in unrelated Base64 data
	private static final int MIN_BASE64_LENGTH = 8;

	private static final Base64.Encoder STANDARD = Base64.getEncoder().withoutPadding();

	private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

	// each form and its placeholder, longest form first
	private final Map<String, String> forms;

	private SecretScrubber(Map<String, String> forms) {
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
		List<Map.Entry<String, String>> forms = new ArrayList<>();
		secrets.forEach((secret, placeholder) -> {
			for (String form : forms(secret)) {
				forms.add(Map.entry(form, placeholder));
			}
		});
		// a longer form first: a shorter one may be part of it
		forms.sort(Comparator.comparingInt((Map.Entry<String, String> form) -> form.getKey().length()).reversed());
		Map<String, String> ordered = new LinkedHashMap<>();
		forms.forEach((form) -> ordered.putIfAbsent(form.getKey(), form.getValue()));
		return new SecretScrubber(ordered);
	}

	String scrub(String text) {
		String scrubbed = text;
		for (Map.Entry<String, String> form : this.forms.entrySet()) {
			scrubbed = scrubbed.replace(form.getKey(), form.getValue());
		}
		return scrubbed;
	}

	/**
	 * Return every form of a secret that is looked for.
	 * @param secret the secret
	 * @return the forms, the secret itself first
	 */
	static Set<String> forms(String secret) {
		Set<String> forms = new LinkedHashSet<>();
		forms.add(secret);
		for (boolean slash : new boolean[] { false, true }) {
			for (Ascii ascii : Ascii.values()) {
				String once = json(secret, slash, ascii);
				forms.add(once);
				forms.add(json(once, slash, ascii));
			}
		}
		String url = URLEncoder.encode(secret, StandardCharsets.UTF_8);
		for (String form : List.of(url, url.replace("+", "%20"))) {
			forms.add(form);
			forms.add(lowerCaseHex(form));
		}
		forms.addAll(base64(secret.getBytes(StandardCharsets.UTF_8)));
		return forms;
	}

	/** How a JSON writer writes characters beyond ASCII. */
	private enum Ascii {

		/** As they are. */
		ANY,

		/** As {@code \u00E9}. */
		UPPER_CASE_ESCAPES,

		/** As {@code \u00e9}. */
		LOWER_CASE_ESCAPES

	}

	private static String json(String text, boolean slash, Ascii ascii) {
		StringBuilder json = new StringBuilder(text.length() + 16);
		boolean lowerCase = ascii == Ascii.LOWER_CASE_ESCAPES;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> json.append("\\\"");
				case '\\' -> json.append("\\\\");
				case '\b' -> json.append("\\b");
				case '\f' -> json.append("\\f");
				case '\n' -> json.append("\\n");
				case '\r' -> json.append("\\r");
				case '\t' -> json.append("\\t");
				case '/' -> json.append(slash ? "\\/" : "/");
				default -> {
					if (c < 0x20 || (c > 0x7e && ascii != Ascii.ANY)) {
						String hex = String.format(Locale.ROOT, "%04X", (int) c);
						json.append("\\u").append(lowerCase ? hex.toLowerCase(Locale.ROOT) : hex);
					}
					else {
						json.append(c);
					}
				}
			}
		}
		return json.toString();
	}

	private static String lowerCaseHex(String urlEncoded) {
		StringBuilder lower = new StringBuilder(urlEncoded);
		for (int i = urlEncoded.indexOf('%'); i >= 0 && i + 2 < urlEncoded.length(); i = urlEncoded.indexOf('%', i + 1)) {
			lower.setCharAt(i + 1, Character.toLowerCase(urlEncoded.charAt(i + 1)));
			lower.setCharAt(i + 2, Character.toLowerCase(urlEncoded.charAt(i + 2)));
		}
		return lower.toString();
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
			pieces.add(STANDARD.encodeToString(shifted).substring(first, last));
			pieces.add(URL_SAFE.encodeToString(shifted).substring(first, last));
		}
		return pieces;
	}

	// the forms spell the secrets out
	@Override
	public String toString() {
		return "SecretScrubber of " + new LinkedHashSet<>(this.forms.values());
	}

}
