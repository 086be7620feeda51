package dev.agcore.support;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LogSafeTests {

	@Test
	void textWithoutControlsIsTheSameInstance() {
		String text = "session-42 é ü 中文 \\n tab-less";
		assertThat(LogSafe.text(text)).isSameAs(text);
		StringBuilder builder = new StringBuilder("plain");
		assertThat(LogSafe.text((CharSequence) builder)).isSameAs(builder);
	}

	@Test
	void nullStaysNull() {
		assertThat(LogSafe.text((String) null)).isNull();
		assertThat(LogSafe.text((CharSequence) null)).isNull();
		assertThat(LogSafe.value(null)).isNull();
	}

	@Test
	void lineBreaksAndTabsAreEscapedByName() {
		assertThat(LogSafe.text("a\r\nINFO forged\tline")).isEqualTo("a\\r\\nINFO forged\\tline");
	}

	@Test
	void otherControlsAreEscapedAsUnicode() {
		assertThat(LogSafe.text("nul\u0000 esc\u001b[31mred bel\u0007 del\u007f nel\u0085 csi\u009b"))
			.isEqualTo("nul\\u0000 esc\\u001b[31mred bel\\u0007 del\\u007f nel\\u0085 csi\\u009b");
	}

	@Test
	void unicodeLineAndParagraphSeparatorsAreEscaped() {
		assertThat(LogSafe.text("a\u2028b\u2029c")).isEqualTo("a\\u2028b\\u2029c");
	}

	@Test
	void everyControlCharacterIsEscaped() {
		for (char c = 0; c < 0xa0; c++) {
			boolean control = c < 0x20 || c >= 0x7f;
			String escaped = LogSafe.text("x" + c);
			if (control) {
				assertThat(escaped).as("U+%04x", (int) c).startsWith("x\\").hasSizeGreaterThan(2);
				assertThat(LogSafe.isSafe(escaped)).isTrue();
			}
			else {
				assertThat(escaped).as("U+%04x", (int) c).isEqualTo("x" + c);
			}
		}
	}

	@Test
	void escapesOnlyFromTheFirstUnsafeCharacterOn() {
		StringBuilder builder = new StringBuilder("abc\ndef");
		assertThat(LogSafe.text((CharSequence) builder).toString()).isEqualTo("abc\\ndef");
	}

	@Test
	void valueIsItselfWhenItsTextIsSafe() {
		Object id = new Id("s-1");
		assertThat(LogSafe.value(id)).isSameAs(id);
		assertThat(LogSafe.value(42)).isEqualTo(42);
		assertThat(LogSafe.value(new Id("s\r\n1"))).isEqualTo("Id[value=s\\r\\n1]");
		assertThat(LogSafe.value("s\n")).isEqualTo("s\\n");
	}

	@Test
	void throwableWithSafeMessagesIsTheSameInstance() {
		IllegalStateException ex = new IllegalStateException("plain", new RuntimeException("also plain"));
		assertThat(LogSafe.throwable(ex)).isSameAs(ex);
		RuntimeException noMessage = new RuntimeException();
		assertThat(LogSafe.throwable(noMessage)).isSameAs(noMessage);
	}

	@Test
	void throwableWithUnsafeCauseIsCopiedWithEscapedMessagesAndTheSameStackTrace() {
		IllegalArgumentException cause = new IllegalArgumentException("Unknown agent 'x\r\nERROR forged'");
		IllegalStateException ex = new IllegalStateException("outer", cause);
		ex.addSuppressed(new RuntimeException("\u001b]0;title\u0007"));
		Throwable safe = LogSafe.throwable(ex);
		assertThat(safe).isNotSameAs(ex)
			.hasMessage("java.lang.IllegalStateException: outer")
			.hasCauseInstanceOf(LogSafe.Escaped.class);
		assertThat(safe.getStackTrace()).isEqualTo(ex.getStackTrace());
		assertThat(safe.getCause())
			.hasMessage("java.lang.IllegalArgumentException: Unknown agent 'x\\r\\nERROR forged'");
		assertThat(safe.getCause().getStackTrace()).isEqualTo(cause.getStackTrace());
		assertThat(safe.getSuppressed()).singleElement()
			.satisfies((suppressed) -> assertThat(suppressed)
				.hasMessage("java.lang.RuntimeException: \\u001b]0;title\\u0007"));
		StringWriter printed = new StringWriter();
		safe.printStackTrace(new PrintWriter(printed));
		// printStackTrace indents its frames with tabs, which are the only controls left
		assertThat(printed.toString().lines())
			.allSatisfy((line) -> assertThat(LogSafe.isSafe(line.replaceFirst("^\t+", ""))).isTrue())
			.noneMatch((line) -> line.startsWith("ERROR forged"));
	}

	@Test
	void throwableWithACycleOfCausesIsCopied() {
		RuntimeException first = new RuntimeException("first\n");
		RuntimeException second = new RuntimeException("second", first);
		first.initCause(second);
		Throwable safe = LogSafe.throwable(first);
		assertThat(safe).hasMessage("java.lang.RuntimeException: first\\n");
		assertThat(safe.getCause().getCause()).isSameAs(safe);
	}

	record Id(String value) {
	}

}
