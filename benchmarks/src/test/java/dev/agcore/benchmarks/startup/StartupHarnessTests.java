package dev.agcore.benchmarks.startup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The startup harness launches both applications in both modes and reads their startup
 * lines. No timing is asserted: the figures themselves belong in docs/performance.md.
 */
class StartupHarnessTests {

	@Test
	void everyApplicationStartsInEveryModeAndItsStartupLineIsRead() throws Exception {
		StartupOptions options = StartupOptions.parse("--launches", "1", "--timeout", "180s");
		List<String> progress = new ArrayList<>();
		List<Launch> launches = StartupHarness.run(options, progress::add);
		assertThat(launches).extracting(Launch::mode, Launch::app)
			.containsExactlyInAnyOrder(tuple(StartupMode.JVM, StartupApp.BASELINE),
					tuple(StartupMode.JVM, StartupApp.AGENT),
					tuple(StartupMode.AOT, StartupApp.BASELINE),
					tuple(StartupMode.AOT, StartupApp.AGENT));
		assertThat(launches).allSatisfy((launch) -> {
			assertThat(launch.startedSeconds()).isPositive();
			assertThat(launch.processSeconds()).isGreaterThanOrEqualTo(launch.startedSeconds());
			assertThat(launch.cpuSeconds()).isPositive();
			assertThat(launch.mainThreadCpuSeconds()).isPositive();
		});
		assertThat(progress).hasSize(4);
		assertThat(StartupHarness.table(launches)).contains("| JVM | WebFlux app without the starter | 1 |")
			.contains("| AOT-processed | same + starter, 1 agent, 1 tool | 1 |");
	}

	@Test
	void theAgentApplicationHasTheStartersJarsOnItsClassPathAndTheBaselineNone() {
		assertThat(StartupApp.AGENT.classPath()).contains("agent-spring-boot-autoconfigure");
		assertThat(StartupApp.BASELINE.classPath()).doesNotContain("agent-spring-boot").contains("spring-boot-starter-webflux");
		assertThat(StartupApp.AGENT.jars()).isGreaterThan(StartupApp.BASELINE.jars());
	}

	@Test
	void springsStartupLineIsParsed() {
		assertThat(Launch.parse("2026-12-01T20:16:13.787Z  INFO 12642 --- [startup] [main] d.a.b.s.a.StartupApplication"
				+ "     : Started StartupApplication in 1.994 seconds (process running for 2.82)"))
			.hasValueSatisfying((figures) -> assertThat(figures).containsExactly(1.994, 2.82));
		assertThat(Launch.parse("Starting StartupApplication using Java 17")).isEmpty();
	}

	@Test
	void medianOfAnEvenNumberIsTheMeanOfTheMiddleTwo() {
		assertThat(StartupHarness.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
		assertThat(StartupHarness.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
	}

	@Test
	void optionsDefaultToTheIssuesRun() {
		StartupOptions options = StartupOptions.parse();
		assertThat(options.launches()).isEqualTo(15);
		assertThat(options.modes()).containsExactly(StartupMode.JVM, StartupMode.AOT);
		assertThat(options.jvmArguments()).isEmpty();
		assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(180));
		assertThat(StartupOptions.parse("--jvm-args", "-Xmx512m  -XX:TieredStopAtLevel=1").jvmArguments())
			.containsExactly("-Xmx512m", "-XX:TieredStopAtLevel=1");
	}

	@Test
	void badOptionsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--launches", "0"))
			.withMessageContaining("'--launches'");
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--modes", "jvm,native"))
			.withMessageContaining("'native'");
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--timeout", "fast"))
			.withMessageContaining("'--timeout'");
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--launches"))
			.withMessageContaining("needs a value");
	}

}
