package dev.agcore.middleware.builtin;

/**
 * What {@link PiiRedactionMiddleware} does with a value it detects.
 */
public enum PiiStrategy {

	/** Replace the value with a placeholder naming its type, such as {@code [REDACTED_EMAIL]}. */
	REDACT,

	/** Hide all but the last four characters (the domain of an email): {@code ****1111}. */
	MASK,

	/**
	 * Fail the turn with a {@link PiiDetectedException} that names the type, never the
	 * value; nothing of the turn is stored.
	 */
	BLOCK

}
