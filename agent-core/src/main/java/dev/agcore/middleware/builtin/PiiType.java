package dev.agcore.middleware.builtin;

/**
 * A kind of personal or secret data that {@link PiiRedactionMiddleware} detects.
 * Detection is pattern-based and errs on the side of finding too much.
 */
public enum PiiType {

	/** An email address. Masked as {@code ****@example.com}. */
	EMAIL("an email address"),

	/**
	 * A phone number: 7 to 15 digits written with separators, parentheses or a leading
	 * {@code +}; dates and IPv4 addresses are not taken for phone numbers. Masked as
	 * {@code ****4567}.
	 */
	PHONE("a phone number"),

	/** A payment card number: 13 to 19 digits passing the Luhn check. Masked as {@code ****1111}. */
	CREDIT_CARD("a credit card number"),

	/**
	 * An API key or access token: well-known prefixed formats ({@code sk-}, {@code AKIA},
	 * {@code ghp_}, {@code github_pat_}, {@code xox?-}, {@code AIza}, {@code glpat-},
	 * {@code hf_}, Stripe keys) and long values after words such as {@code api_key=},
	 * {@code token:} or {@code Bearer}. Masked as {@code ****} and the last 4 characters.
	 */
	API_KEY("an API key");

	private final String description;

	PiiType(String description) {
		this.description = description;
	}

	/**
	 * Return a description for messages, such as "an email address".
	 * @return the description
	 */
	public String description() {
		return this.description;
	}

	/**
	 * Return the text that replaces a value of this type under
	 * {@link PiiStrategy#REDACT}, such as {@code [REDACTED_EMAIL]}.
	 * @return the placeholder
	 */
	public String placeholder() {
		return "[REDACTED_" + name() + "]";
	}

}
