package dev.agcore.middleware.builtin;

import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PII detection is linear in its input: adversarial messages neither overflow the stack
 * nor backtrack catastrophically. Work is counted as characters read by the patterns, so
 * the check does not depend on how fast the machine is.
 */
class PiiDetectorLinearityTests {

	private final PiiDetector detector = new PiiDetector(all());

	static Stream<String> adversarialUnits() {
		return Stream.of("a", "a.", "a@", "a@a.", "a-", "1", "1-", "1 ", "1.", "1.1.1.1 ", "+1", "(1)",
				"x@y.zz ", "ab.cd@", "sk-", "token=", "1234 5678 ");
	}

	@ParameterizedTest
	@MethodSource("adversarialUnits")
	void workGrowsLinearlyWithTheInput(String unit) {
		long small = charsRead(unit.repeat(10_000 / unit.length()));
		long large = charsRead(unit.repeat(100_000 / unit.length()));
		// linear: ten times the input, about ten times the work; quadratic would be a hundred
		assertThat(large).as("characters read for 100 KB of '%s' vs 10 KB", unit).isLessThan(small * 20);
	}

	@ParameterizedTest
	@MethodSource("adversarialUnits")
	void hundredKilobytesOfAdversarialInputAreHandledWithoutError(String unit) {
		String text = unit.repeat(100_000 / unit.length());
		assertThat(this.detector.apply(text, null)).isNotNull();
	}

	@org.junit.jupiter.api.Test
	void textBeyondTheScanCapIsDroppedNotPassedOnUnscanned() {
		String hidden = "a".repeat(PiiDetector.MAX_SCANNED_CHARS) + " mail me at jane@example.com";
		String result = this.detector.apply(hidden, null);
		assertThat(result).doesNotContain("jane@example.com").contains("were not checked for personal data");
	}

	@org.junit.jupiter.api.Test
	void emailsAreStillFoundWhole() {
		assertThat(this.detector.apply("write to john.doe@mail.example.com today", null))
			.isEqualTo("write to " + PiiType.EMAIL.placeholder() + " today");
	}

	private long charsRead(String text) {
		CountingText counting = new CountingText(text);
		this.detector.find(counting);
		return counting.reads;
	}

	private static Map<PiiType, PiiStrategy> all() {
		Map<PiiType, PiiStrategy> strategies = new EnumMap<>(PiiType.class);
		for (PiiType type : PiiType.values()) {
			strategies.put(type, PiiStrategy.REDACT);
		}
		return strategies;
	}

	/** A text that counts how often the regex engine reads a character. */
	private static final class CountingText implements CharSequence {

		private final String text;

		private long reads;

		CountingText(String text) {
			this.text = text;
		}

		@Override
		public int length() {
			return this.text.length();
		}

		@Override
		public char charAt(int index) {
			this.reads++;
			return this.text.charAt(index);
		}

		@Override
		public CharSequence subSequence(int start, int end) {
			return this.text.subSequence(start, end);
		}

		@Override
		public String toString() {
			return this.text;
		}

	}

}
