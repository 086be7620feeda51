package dev.agcore.mcp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The names MCP tools get locally: {@code <server><separator><tool>}, made to fit what
 * every model API accepts, {@code ^[a-zA-Z0-9_-]{1,64}$}.
 * <ul>
 * <li>every other character becomes {@code _} ({@code my.server} and
 * {@code read file} give {@code my_server__read_file});</li>
 * <li>a name longer than 64 characters keeps its first 55 and ends with {@code _} and
 * the first 8 hex digits of the SHA-256 of the full unsanitised {@code server/tool}, so
 * it stays the same from one run to the next;</li>
 * <li>a name already taken by another tool gets the same 8-digit suffix instead
 * ({@code a.b} and {@code a_b} on one server).</li>
 * </ul>
 * Agents select MCP tools by the server's own names ({@code mcp:server/read_*}), never
 * by these.
 */
final class McpToolNames {

	/** The default text between the server's name and the tool's. */
	static final String DEFAULT_SEPARATOR = "__";

	static final int MAX_LENGTH = 64;

	private static final Pattern ALLOWED = Pattern.compile("[a-zA-Z0-9_-]+");

	private static final Pattern OTHER = Pattern.compile("[^a-zA-Z0-9_-]");

	private static final int HASH_LENGTH = 8;

	private final String separator;

	McpToolNames(String separator) {
		this.separator = checkSeparator(separator);
	}

	/**
	 * Check a separator: 1 to 8 of the characters tool names allow.
	 * @param separator the separator
	 * @return the separator
	 * @throws IllegalArgumentException if it is not allowed
	 */
	static String checkSeparator(String separator) {
		Objects.requireNonNull(separator, "'separator' must not be null");
		if (separator.length() > 8 || !ALLOWED.matcher(separator).matches()) {
			throw new IllegalArgumentException("Tool name separator '" + separator
					+ "' must be 1 to 8 letters, digits, '_' or '-': model APIs allow no other characters in tool names");
		}
		return separator;
	}

	/** The local name of a tool, before resolving clashes. */
	String name(String server, String tool) {
		String name = OTHER.matcher(server + this.separator + tool).replaceAll("_");
		if (name.length() <= MAX_LENGTH) {
			return name;
		}
		return name.substring(0, MAX_LENGTH - HASH_LENGTH - 1) + "_" + hash(server, tool);
	}

	/** Another name for a tool whose name another tool already has. */
	String alternative(String server, String tool) {
		String name = name(server, tool);
		String suffix = "_" + hash(server, tool);
		int keep = Math.min(name.length(), MAX_LENGTH - suffix.length());
		return name.substring(0, keep) + suffix;
	}

	private static String hash(String server, String tool) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256")
				.digest((server + "/" + tool).getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest).substring(0, HASH_LENGTH);
		}
		catch (NoSuchAlgorithmException ex) {
			// every Java platform has SHA-256
			throw new IllegalStateException(ex);
		}
	}

}
