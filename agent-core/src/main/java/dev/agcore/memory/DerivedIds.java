package dev.agcore.memory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Ids derived from a session id, such as a sub-agent's session or an agent's own
 * conversation, kept within the length stores accept: the session id is replaced by its
 * SHA-256 when the whole would be too long, and the whole id when even that is.
 */
public final class DerivedIds {

	private DerivedIds() {
	}

	/**
	 * Derive an id.
	 * @param base the session id derived from
	 * @param suffix what is appended to it, separator included (e.g. {@code #agent})
	 * @param maxLength the longest id stores accept
	 * @param fallbackPrefix what precedes the hash of the whole id when nothing shorter fits
	 * @return {@code base + suffix}, or {@code sha256(base) + suffix}, or
	 * {@code fallbackPrefix + sha256(base + suffix)}
	 */
	public static String derive(String base, String suffix, int maxLength, String fallbackPrefix) {
		String id = base + suffix;
		if (id.length() <= maxLength) {
			return id;
		}
		String hashed = sha256(base) + suffix;
		return (hashed.length() <= maxLength) ? hashed : fallbackPrefix + sha256(id);
	}

	/**
	 * Return the SHA-256 of a text, in lower-case hex.
	 * @param text the text, as UTF-8
	 * @return the hash
	 */
	public static String sha256(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available in this JVM", ex);
		}
	}

}
