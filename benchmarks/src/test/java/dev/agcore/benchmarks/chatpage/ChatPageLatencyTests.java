package dev.agcore.benchmarks.chatpage;

import java.time.Duration;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The chat page tool, run tiny in headless Chromium, times every step of a page load and
 * of a send, in the order they happen. Skipped when Chromium or chromedriver is missing,
 * failed on CI, as the chat page's browser test is. No time is asserted: the figures
 * belong in docs/performance.md.
 */
class ChatPageLatencyTests {

	@Test
	void timesEveryStepOfALoadAndOfASendInOrder() throws Exception {
		ChatPageOptions options = ChatPageOptions.parse("--loads", "2", "--warmup-sends", "1", "--sends", "2",
				"--chunks", "3", "--chunk-interval", "0ms");
		chromiumIsInstalled(options);
		ChatPageReport report = ChatPageLatency.run(options, (line) -> {
		});
		assertThat(report.loads()).hasSize(2).allSatisfy((load) -> {
			assertThat(load.firstByte()).isPositive();
			assertThat(load.domContentLoaded()).isGreaterThanOrEqualTo(load.firstByte());
			assertThat(load.interactive()).isGreaterThanOrEqualTo(load.firstByte());
		});
		assertThat(report.sends()).hasSize(2).allSatisfy((send) -> {
			assertThat(send.received()).isGreaterThanOrEqualTo(send.pressed());
			assertThat(send.fetched()).isGreaterThanOrEqualTo(send.received());
			assertThat(send.requested()).isGreaterThanOrEqualTo(send.pressed());
			assertThat(send.responded()).isGreaterThanOrEqualTo(send.requested());
			assertThat(send.shown()).isGreaterThanOrEqualTo(send.responded());
			assertThat(send.dom()).isGreaterThanOrEqualTo(send.shown());
			assertThat(send.frame()).isGreaterThanOrEqualTo(send.dom());
			assertThat(send.ended()).isGreaterThanOrEqualTo(send.responded());
		});
		assertThat(report.medianFirstToken()).isPositive();
		assertThat(report.table()).contains("| **first token on screen** (the frame showing it rendered) |")
			.contains("| **interactive** (agents listed, one chosen) |");
	}

	@Test
	void optionsDefaultToTheIssuesRun() {
		ChatPageOptions options = ChatPageOptions.parse();
		assertThat(options.sends()).isEqualTo(20);
		assertThat(options.loads()).isEqualTo(10);
		assertThat(options.firstChunkDelay()).isZero();
		assertThat(ChatPageOptions.parse("--first-chunk-delay", "1.5s").firstChunkDelay())
			.isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	void badOptionsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> ChatPageOptions.parse("--first-chunk-delay", "soon"))
			.withMessageContaining("'--first-chunk-delay'");
		assertThatIllegalArgumentException().isThrownBy(() -> ChatPageOptions.parse("--sends", "0"))
			.withMessageContaining("'--sends'");
		assertThatIllegalArgumentException().isThrownBy(() -> ChatPageOptions.parse("--loads"))
			.withMessageContaining("needs a value");
	}

	@Test
	void answersAreSplitAtWordsIntoTheChunksAsked() {
		assertThat(PacedAnswerModel.split(PacedAnswerModel.ANSWER, 20)).hasSize(20)
			.allSatisfy((piece) -> assertThat(piece).isNotEmpty());
		assertThat(String.join("", PacedAnswerModel.split(PacedAnswerModel.ANSWER, 7)))
			.isEqualTo(PacedAnswerModel.ANSWER);
		assertThat(PacedAnswerModel.split("one", 5)).containsExactly("one");
	}

	@Test
	void percentilesAreNearestRank() {
		double[] values = { 5, 1, 4, 2, 3, 10, 9, 8, 7, 6 };
		assertThat(ChatPageReport.percentile(values, 50)).isEqualTo(5);
		assertThat(ChatPageReport.percentile(values, 90)).isEqualTo(9);
		assertThat(ChatPageReport.percentile(new double[] { 3 }, 90)).isEqualTo(3);
	}

	private static void chromiumIsInstalled(ChatPageOptions options) {
		String missing = ChatPageLatency.missing(options);
		if (missing != null) {
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(missing + "; on CI they must be installed");
			}
			Assumptions.abort(missing);
		}
	}

}
