package dev.agcore.middleware.builtin;

import java.util.EnumMap;
import java.util.Map;

/**
 * The detectors of {@link PiiRedactionMiddleware}, for text that is not a message: every
 * {@link PiiType} found is replaced by its placeholder ({@code [REDACTED_EMAIL]}). Used by
 * the audit trail on tool arguments before they are published.
 *
 * @since 0.1.0
 */
public final class PiiRedactor {

	private static final PiiRedactor ALL = new PiiRedactor();

	private final PiiDetector detector;

	private PiiRedactor() {
		Map<PiiType, PiiStrategy> strategies = new EnumMap<>(PiiType.class);
		for (PiiType type : PiiType.values()) {
			strategies.put(type, PiiStrategy.REDACT);
		}
		this.detector = new PiiDetector(strategies);
	}

	/**
	 * Return the redactor of every type of personal data.
	 * @return the redactor
	 */
	public static PiiRedactor all() {
		return ALL;
	}

	/**
	 * Redact a text.
	 * @param text the text
	 * @return the text with every value found replaced by its placeholder
	 */
	public String redact(String text) {
		return this.detector.apply(text, null);
	}

}
