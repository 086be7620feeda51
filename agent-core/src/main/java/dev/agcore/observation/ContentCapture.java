package dev.agcore.observation;

import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.agcore.tool.secret.ActiveSecrets;

/**
 * Whether prompts, completions, tool arguments and tool results are recorded on spans
 * (as the high-cardinality {@code gen_ai.input.messages}, {@code gen_ai.output.messages},
 * {@code gen_ai.tool.call.arguments} and {@code gen_ai.tool.call.result}), and how they
 * are cleaned first. Off by default: content may hold personal data and secrets, and
 * whoever reads the traces reads it too.
 * <p>
 * A captured text has the secrets of the running tool call replaced by placeholders,
 * then goes through the redactor (personal data), then is cut to {@code maxLength}.
 *
 * @param enabled whether content is captured
 * @param maxLength the longest text recorded, in characters
 * @param redactor removes personal data from a text
 */
public record ContentCapture(boolean enabled, int maxLength, UnaryOperator<String> redactor) {

	/** The default cap on a captured text. */
	public static final int DEFAULT_MAX_LENGTH = 4096;

	/** Nothing is captured. */
	public static final ContentCapture OFF = new ContentCapture(false, DEFAULT_MAX_LENGTH, UnaryOperator.identity());

	public ContentCapture {
		Objects.requireNonNull(redactor, "'redactor' must not be null");
		if (maxLength < 1) {
			throw new IllegalArgumentException("'maxLength' must be positive, was " + maxLength);
		}
	}

	/**
	 * Return content capture that cleans texts with the given redactor.
	 * @param maxLength the longest text recorded
	 * @param redactor removes personal data from a text
	 * @return content capture, on
	 */
	public static ContentCapture on(int maxLength, UnaryOperator<String> redactor) {
		return new ContentCapture(true, maxLength, redactor);
	}

	/**
	 * Clean a text for recording: secrets, then personal data, then length.
	 * @param text the text
	 * @return the text as recorded
	 */
	public String clean(String text) {
		String scrubbed = ActiveSecrets.scrub(text);
		String redacted = this.redactor.apply(scrubbed);
		if (redacted.length() <= this.maxLength) {
			return redacted;
		}
		int end = this.maxLength;
		if (Character.isHighSurrogate(redacted.charAt(end - 1))) {
			end--;
		}
		return redacted.substring(0, end) + "[truncated " + (redacted.length() - end) + " characters]";
	}

}
