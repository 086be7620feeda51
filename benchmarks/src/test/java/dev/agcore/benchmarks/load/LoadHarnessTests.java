package dev.agcore.benchmarks.load;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The load harness runs every variant against its fake server and produces sane numbers.
 * No timing is asserted: the figures themselves belong in docs/performance.md.
 */
class LoadHarnessTests {

	@Test
	void everyVariantCompletesOperationsWithoutErrors() throws InterruptedException {
		// a window long enough for a cold, streamed turn to end in it on a busy two-core machine
		LoadOptions options = LoadOptions.parse("--concurrency", "4", "--delay", "10ms", "--warmup", "300ms",
				"--duration", "1s", "--server", "in-process");
		try (FakeOpenAiServer server = FakeOpenAiServer.start(options.delay())) {
			List<LoadResult> results = LoadHarness.run(options, server.baseUrl(), (line) -> {
			});
			assertThat(results).extracting(LoadResult::variant).containsExactly(Variant.values());
			assertThat(results).allSatisfy((result) -> {
				assertThat(result.errors()).as(result.variant() + ": " + result.firstError()).isZero();
				assertThat(result.operations()).as(result.variant().id()).isPositive();
				assertThat(result.p99Nanos()).isGreaterThanOrEqualTo(result.p50Nanos());
				// an operation cannot end before the server answered each of its exchanges
				assertThat(result.p50Nanos())
					.isGreaterThanOrEqualTo(options.delay().toNanos() * result.variant().exchanges() * 98 / 100);
				assertThat(result.cpuNanos()).isPositive();
				assertThat(result.allocatedBytes()).isPositive();
				assertThat(result.heapAfterGcBytes()).isPositive();
			});
			long operations = results.stream().mapToLong(LoadResult::operations).sum();
			assertThat(server.requests()).isGreaterThan(operations);
			assertThat(LoadHarness.table(results)).contains("| raw JDK HttpClient | 4 |")
				.contains("| streamed turn, 50 chunks | 4 |");
		}
	}

	@Test
	void optionsDefaultToTheIssuesRun() {
		LoadOptions options = LoadOptions.parse();
		assertThat(options.concurrencies()).containsExactly(200, 1000);
		assertThat(options.delay()).isEqualTo(Duration.ofMillis(100));
		assertThat(options.duration()).isEqualTo(Duration.ofSeconds(10));
		assertThat(options.variants()).containsExactly(Variant.values());
		assertThat(options.forkServer()).isTrue();
		assertThat(options.rounds()).isEqualTo(1);
		assertThat(options.maxConnections()).isEqualTo(1000);
		assertThat(LoadOptions.parse("--max-connections", "default").maxConnections()).isZero();
	}

	@Test
	void badOptionsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse("--delay", "fast"))
			.withMessageContaining("'--delay'");
		assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse("--variants", "raw,bogus"))
			.withMessageContaining("'bogus'");
		assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse("--concurrency", "0"))
			.withMessageContaining("'--concurrency'");
		assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse("--duration"))
			.withMessageContaining("needs a value");
	}

	@Test
	void histogramPercentilesAreWithinTwoPercent() {
		LatencyHistogram histogram = new LatencyHistogram();
		for (long micros = 1; micros <= 1000; micros++) {
			histogram.record(micros * 1000);
		}
		assertThat(histogram.percentile(50)).isBetween(490_000L, 510_000L);
		assertThat(histogram.percentile(99)).isBetween(970_000L, 1_010_000L);
		assertThat(new LatencyHistogram().percentile(50)).isZero();
	}

}
