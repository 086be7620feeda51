package dev.agcore.support;

import java.util.IdentityHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Escapes control characters in text that is about to be logged, so that caller or
 * model text (a session id, an agent or tool name, a message, a model's answer) cannot
 * start a forged log line or send escape sequences to a terminal that shows the log.
 * <p>
 * Escaped are the C0 controls (U+0000 to U+001F), DEL (U+007F), the C1 controls
 * (U+0080 to U+009F, NEL among them) and the Unicode line and paragraph separators
 * (U+2028, U+2029): CR, LF and TAB become {@code \r}, {@code \n} and {@code \t}, every
 * other one {@code \}{@code uXXXX} (ESC becomes {@code \}{@code u001b}). Everything else,
 * backslashes included, is left as it is.
 * <p>
 * Text that needs no escaping, nearly all of it, is returned as the same instance, so a
 * log call on the hot path allocates nothing more. Escape at the argument:
 * {@code logger.info("Turn of session {}", LogSafe.text(sessionId))}.
 */
public final class LogSafe {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private LogSafe() {
	}

	/**
	 * The text with its control characters escaped.
	 * @param text the text, or null
	 * @return the same instance when nothing needs escaping (or when null), else an
	 * escaped copy
	 */
	public static @Nullable String text(@Nullable String text) {
		if (text == null) {
			return null;
		}
		int first = firstUnsafe(text);
		return (first < 0) ? text : escape(text, first);
	}

	/**
	 * The text with its control characters escaped.
	 * @param text the text, or null
	 * @return the same instance when nothing needs escaping (or when null), else an
	 * escaped copy
	 */
	public static @Nullable CharSequence text(@Nullable CharSequence text) {
		if (text == null) {
			return null;
		}
		int first = firstUnsafe(text);
		return (first < 0) ? text : escape(text, first);
	}

	/**
	 * A value's text with its control characters escaped, for values whose
	 * {@code toString()} may carry caller text (ids, names, records).
	 * @param value the value, or null
	 * @return the value itself when its text needs no escaping (or when it is null), else
	 * its escaped text
	 */
	public static @Nullable Object value(@Nullable Object value) {
		if (value == null || value instanceof Number || value instanceof Boolean || value instanceof Enum<?>) {
			return value;
		}
		if (value instanceof CharSequence sequence) {
			return text(sequence);
		}
		String text = value.toString();
		int first = firstUnsafe(text);
		return (first < 0) ? value : escape(text, first);
	}

	/**
	 * An exception fit for a log's stack trace: the same instance when no message in its
	 * chain of causes needs escaping, else a copy of the chain whose messages are escaped,
	 * each one named after the class it copies, with the same stack traces. The copy is
	 * only for logging; never throw it.
	 * @param ex the exception
	 * @return the exception, or its escaped copy
	 */
	public static Throwable throwable(Throwable ex) {
		return safe(ex) ? ex : copy(ex, new IdentityHashMap<>());
	}

	/**
	 * Whether the text holds nothing that {@link #text(CharSequence)} would escape.
	 * @param text the text
	 * @return true when the text is safe to log as it is
	 */
	public static boolean isSafe(CharSequence text) {
		return firstUnsafe(text) < 0;
	}

	private static boolean safe(Throwable ex) {
		Map<Throwable, Boolean> seen = new IdentityHashMap<>();
		return safe(ex, seen);
	}

	private static boolean safe(@Nullable Throwable ex, Map<Throwable, Boolean> seen) {
		if (ex == null || seen.put(ex, Boolean.TRUE) != null) {
			return true;
		}
		String message = ex.getMessage();
		if (message != null && firstUnsafe(message) >= 0) {
			return false;
		}
		for (Throwable suppressed : ex.getSuppressed()) {
			if (!safe(suppressed, seen)) {
				return false;
			}
		}
		return safe(ex.getCause(), seen);
	}

	private static Throwable copy(Throwable ex, Map<Throwable, Throwable> copies) {
		Throwable done = copies.get(ex);
		if (done != null) {
			return done;
		}
		String message = ex.getMessage();
		Escaped copy = new Escaped(ex.getClass().getName() + ((message != null) ? ": " + text(message) : ""));
		copies.put(ex, copy);
		copy.setStackTrace(ex.getStackTrace());
		Throwable cause = ex.getCause();
		if (cause != null && cause != ex) {
			copy.initCause(copy(cause, copies));
		}
		for (Throwable suppressed : ex.getSuppressed()) {
			copy.addSuppressed(copy(suppressed, copies));
		}
		return copy;
	}

	private static int firstUnsafe(CharSequence text) {
		for (int i = 0, length = text.length(); i < length; i++) {
			if (unsafe(text.charAt(i))) {
				return i;
			}
		}
		return -1;
	}

	private static boolean unsafe(char c) {
		return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
	}

	private static String escape(CharSequence text, int first) {
		int length = text.length();
		StringBuilder escaped = new StringBuilder(length + 16);
		escaped.append(text, 0, first);
		for (int i = first; i < length; i++) {
			char c = text.charAt(i);
			if (!unsafe(c)) {
				escaped.append(c);
			}
			else if (c == '\r') {
				escaped.append("\\r");
			}
			else if (c == '\n') {
				escaped.append("\\n");
			}
			else if (c == '\t') {
				escaped.append("\\t");
			}
			else {
				escaped.append("\\u")
					.append(HEX[(c >> 12) & 0xf])
					.append(HEX[(c >> 8) & 0xf])
					.append(HEX[(c >> 4) & 0xf])
					.append(HEX[c & 0xf]);
			}
		}
		return escaped.toString();
	}

	/**
	 * The logged copy of an exception whose message needed escaping: its message starts
	 * with the name of the class it copies.
	 */
	static final class Escaped extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Escaped(String message) {
			super(message);
		}

		@Override
		public synchronized Throwable fillInStackTrace() {
			return this;
		}

	}

}
