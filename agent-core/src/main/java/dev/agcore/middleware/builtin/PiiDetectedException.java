package dev.agcore.middleware.builtin;

import dev.agcore.middleware.MiddlewareException;

/**
 * {@link PiiRedactionMiddleware} blocked a turn because a value of a type configured with
 * {@link PiiStrategy#BLOCK} was found. The message names the type and where it was found,
 * never the value.
 */
public class PiiDetectedException extends MiddlewareException {

	private final PiiType type;

	public PiiDetectedException(PiiType type, String where) {
		super(capitalize(where) + " contains " + type.description() + "; the turn was blocked by the PII policy");
		this.type = type;
	}

	/**
	 * Return the type of the value found.
	 * @return the type
	 */
	public PiiType type() {
		return this.type;
	}

	private static String capitalize(String text) {
		return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
	}

}
