package dev.agcore.tool;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a tool may do, for permission policies to decide on: one of the three levels
 * {@link #READ_ONLY}, {@link #WRITE} and {@link #DESTRUCTIVE}, or a custom permission
 * named {@code namespace:name} (for example {@code billing:refund}).
 *
 * @param value the permission as written in annotations and configuration
 */
public record ToolPermission(String value) {

	/** Reads, never changes anything. */
	public static final ToolPermission READ_ONLY = new ToolPermission("read-only");

	/** May create or change things. */
	public static final ToolPermission WRITE = new ToolPermission("write");

	/** May delete things or do what cannot be undone. */
	public static final ToolPermission DESTRUCTIVE = new ToolPermission("destructive");

	private static final Pattern CUSTOM = Pattern.compile("[a-z0-9][a-z0-9_.-]*:[a-z0-9][a-z0-9_.-]*");

	public ToolPermission {
		Objects.requireNonNull(value, "'value' must not be null");
		if (!isLevel(value) && !CUSTOM.matcher(value).matches()) {
			throw new IllegalArgumentException("Invalid tool permission '" + value
					+ "': use read-only, write, destructive or a custom 'namespace:name' in lower case");
		}
	}

	/**
	 * Parse a permission. The levels are accepted in any case and with {@code _} for
	 * {@code -} ({@code READ_ONLY}, {@code read_only}).
	 * @param value the permission text
	 * @return the permission
	 * @throws IllegalArgumentException if the text is neither a level nor a custom
	 * permission
	 */
	public static ToolPermission of(String value) {
		Objects.requireNonNull(value, "'value' must not be null");
		String level = value.strip().toLowerCase(Locale.ROOT).replace('_', '-');
		return switch (level) {
			case "read-only" -> READ_ONLY;
			case "write" -> WRITE;
			case "destructive" -> DESTRUCTIVE;
			default -> new ToolPermission(value.strip());
		};
	}

	/**
	 * Create a custom permission.
	 * @param value the permission, {@code namespace:name}
	 * @return the permission
	 */
	public static ToolPermission custom(String value) {
		ToolPermission permission = new ToolPermission(value);
		if (!permission.isCustom()) {
			throw new IllegalArgumentException("Custom tool permission '" + value + "' must be 'namespace:name'");
		}
		return permission;
	}

	/**
	 * Return whether this is a custom permission rather than one of the three levels.
	 * @return whether the permission is custom
	 */
	public boolean isCustom() {
		return !isLevel(this.value);
	}

	private static boolean isLevel(String value) {
		return value.equals("read-only") || value.equals("write") || value.equals("destructive");
	}

	@Override
	public String toString() {
		return this.value;
	}

}
