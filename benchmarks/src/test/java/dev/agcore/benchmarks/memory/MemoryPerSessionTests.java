package dev.agcore.benchmarks.memory;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The memory tool, run tiny, measures what it says it does: the histogram of the idle
 * sessions holds exactly their messages, and that of the turns in flight exactly one
 * turn each. No size is asserted: the figures belong in docs/performance.md, and those of
 * ten sessions are noise.
 */
class MemoryPerSessionTests {

	@Test
	void countsTheMessagesOfTheSessionsAndTheTurnsInFlight() throws Exception {
		MemoryOptions options = MemoryOptions.parse("--sessions", "10", "--turns", "2", "--user-chars", "30",
				"--answer-chars", "40", "--chunks", "4", "--top", "500");
		MemoryReport report = MemoryPerSession.run(options, (line) -> {
		});
		Map<String, Long> idle = instances(MemoryReport.classesGrown(report.idle(), report.empty()));
		assertThat(idle).containsEntry("dev.agcore.message.UserMessage", 20L)
			.containsEntry("dev.agcore.message.AssistantMessage", 20L)
			.containsEntry("dev.agcore.memory.MessageLog", 10L);
		Map<String, Long> inFlight = instances(MemoryReport.classesGrown(report.inFlight(), report.idle()));
		assertThat(inFlight).containsEntry("dev.agcore.runtime.Turn", 10L);
		Map<String, Long> after = instances(MemoryReport.classesGrown(report.after(), report.idle()));
		assertThat(after).containsEntry("dev.agcore.message.UserMessage", 10L)
			.doesNotContainKey("dev.agcore.runtime.Turn");
		// the totals of ten sessions are within the noise of the JVM's own objects: not asserted
		assertThat(report.table()).contains("| 10 idle sessions, 4 messages each |")
			.contains("| + 10 streamed turns in flight (2 of 4 chunks) |")
			.contains("| `dev.agcore.message.AssistantMessage` | 2.00 |");
	}

	@Test
	void optionsDefaultToTheIssuesRun() {
		MemoryOptions options = MemoryOptions.parse();
		assertThat(options.sessions()).isEqualTo(1000);
		assertThat(options.turns()).isEqualTo(25);
		assertThat(options.chunks()).isEqualTo(50);
		assertThat(options.heapDumps()).isNull();
	}

	@Test
	void badOptionsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.parse("--sessions", "many"))
			.withMessageContaining("'--sessions'");
		assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.parse("--chunks", "1"))
			.withMessageContaining("'--chunks'");
		assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.parse("--bogus", "1"))
			.withMessageContaining("'--bogus'");
		assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.parse("--turns"))
			.withMessageContaining("needs a value");
	}

	@Test
	void histogramTextIsRead() {
		HeapHistogram histogram = HeapHistogram.parse("""
				 num     #instances         #bytes  class name (module)
				-------------------------------------------------------
				   1:            10            480  [B (java.base@17.0.15)
				   2:             2             48  dev.agcore.message.UserMessage
				Total            12            528
				""");
		assertThat(histogram.totalBytes()).isEqualTo(528);
		assertThat(histogram.classes()).containsEntry("[B", new HeapHistogram.Entry(10, 480));
		assertThat(histogram.since(HeapHistogram.parse("Total 0 0"))).extracting(HeapHistogram.Delta::readableName)
			.containsExactly("byte[]", "dev.agcore.message.UserMessage");
	}

	private static Map<String, Long> instances(List<HeapHistogram.Delta> deltas) {
		return deltas.stream().collect(Collectors.toMap(HeapHistogram.Delta::className, HeapHistogram.Delta::instances));
	}

}
