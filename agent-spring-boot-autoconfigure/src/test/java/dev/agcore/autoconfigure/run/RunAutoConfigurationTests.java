package dev.agcore.autoconfigure.run;

import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.run.InMemoryRunStore;
import dev.agcore.run.Run;
import dev.agcore.run.RunEmission;
import dev.agcore.run.RunEventStream;
import dev.agcore.run.RunExecutor;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunWorker;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RunAutoConfiguration}.
 */
class RunAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RunAutoConfiguration.class));

	@Test
	void definesAnInMemoryStoreAStartedWorkerAndTheFacade() {
		this.contextRunner.withBean("echo", RunExecutor.class, () -> executor("echo")).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(InMemoryRunStore.class)
				.hasSingleBean(RunEventStream.class)
				.hasSingleBean(Runs.class);
			RunWorker worker = context.getBean(RunWorker.class);
			assertThat(worker.isRunning()).isTrue();
			assertThat(worker.settings().concurrency()).isEqualTo(4);
			assertThat(worker.settings().maxAttempts()).isEqualTo(3);
			assertThat(context.getBean(Runs.class).targets("echo")).containsExactly("a");
		});
	}

	@Test
	void backsOffForAStoreOfTheApplication() {
		RunStore store = new InMemoryRunStore();
		this.contextRunner.withBean(RunStore.class, () -> store)
			.run((context) -> assertThat(context.getBean(RunStore.class)).isSameAs(store));
	}

	@Test
	void instanceWithoutAWorkerStillSubmitsAndStreams() {
		this.contextRunner.withPropertyValues("agent.runs.worker.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RunWorker.class).hasSingleBean(Runs.class));
	}

	@Test
	void disabledRunsDefineNothing() {
		this.contextRunner.withPropertyValues("agent.runs.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RunStore.class).doesNotHaveBean(Runs.class));
	}

	@Test
	void settingsAreTakenFromProperties() {
		this.contextRunner
			.withPropertyValues("agent.runs.worker.concurrency=7", "agent.runs.lease=1m",
					"agent.runs.heartbeat-interval=10s", "agent.runs.max-per-session=2", "agent.runs.deadline=5m")
			.run((context) -> {
				RunWorker worker = context.getBean(RunWorker.class);
				assertThat(worker.settings().concurrency()).isEqualTo(7);
				assertThat(worker.settings().lease()).hasMinutes(1);
				assertThat(worker.settings().maxPerSession()).isEqualTo(2);
				assertThat(worker.settings().deadline()).hasMinutes(5);
			});
	}

	@Test
	void heartbeatNotShorterThanTheLeaseFailsStartupNamingBoth() {
		this.contextRunner.withPropertyValues("agent.runs.lease=10s", "agent.runs.heartbeat-interval=10s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.runs.heartbeat-interval")
				.hasMessageContaining("agent.runs.lease"));
	}

	@Test
	void zeroConcurrencyFailsStartup() {
		this.contextRunner.withPropertyValues("agent.runs.worker.concurrency=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.runs.worker.concurrency"));
	}

	@Test
	void twoExecutorsOfOneKindFailStartup() {
		this.contextRunner.withBean("one", RunExecutor.class, () -> executor("same"))
			.withBean("two", RunExecutor.class, () -> executor("same"))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("'same'"));
	}

	private static RunExecutor executor(String kind) {
		return new RunExecutor() {

			@Override
			public String kind() {
				return kind;
			}

			@Override
			public List<String> targets() {
				return List.of("a");
			}

			@Override
			public Flux<RunEmission> execute(Run run) {
				return Flux.empty();
			}

		};
	}

}
