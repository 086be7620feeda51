package dev.agcore.autoconfigure.run;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.run.InMemoryRunStore;
import dev.agcore.run.Run;
import dev.agcore.run.RunStore;
import dev.agcore.run.schedule.RunSchedule;
import dev.agcore.run.schedule.RunScheduler;
import dev.agcore.testing.ScriptedChatModel;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RunScheduleAutoConfiguration}.
 */
class RunScheduleAutoConfigurationTests {

	private final InMemoryRunStore store = new InMemoryRunStore();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RunScheduleAutoConfiguration.class))
		.withBean(RunStore.class, () -> this.store);

	@Test
	void schedulesAreReadWithTheirDefaults() {
		this.contextRunner
			.withPropertyValues("agent.schedules.report.agent=assistant", "agent.schedules.report.cron=0 */5 * * * *",
					"agent.schedules.report.message=Daily report", "agent.schedules.sync.workflow=sync",
					"agent.schedules.sync.cron=0 0 2 * * *", "agent.schedules.sync.zone=Europe/Berlin",
					"agent.schedules.sync.session-id=nightly", "agent.schedules.sync.input.source=crm",
					"agent.schedules.sync.input.limits.rows=100", "agent.schedules.off.agent=assistant",
					"agent.schedules.off.cron=bad cron but disabled", "agent.schedules.off.enabled=false")
			.run((context) -> {
				List<RunSchedule> schedules = context.getBean(RunScheduler.class).schedules();
				assertThat(schedules).extracting(RunSchedule::name).containsExactly("report", "sync");
				RunSchedule report = schedules.get(0);
				assertThat(report.kind()).isEqualTo("agent");
				assertThat(report.sessionId()).isEqualTo("schedule-report");
				assertThat(report.zone()).isEqualTo(ZoneId.systemDefault());
				assertThat(report.input().get("message").asString()).isEqualTo("Daily report");
				RunSchedule sync = schedules.get(1);
				assertThat(sync.kind()).isEqualTo("workflow");
				assertThat(sync.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
				assertThat(sync.sessionId()).isEqualTo("nightly");
				assertThat(sync.input().get("source").asString()).isEqualTo("crm");
				assertThat(sync.input().get("limits").get("rows").asString()).isEqualTo("100");
			});
	}

	@Test
	void withoutSchedulesThereIsNoScheduler() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(RunScheduler.class));
	}

	@Test
	void twoInstancesOnOneStoreQueueEachFireTimeOnce() throws InterruptedException {
		ApplicationContextRunner everySecond = this.contextRunner.withPropertyValues(
				"agent.schedules.tick.agent=assistant", "agent.schedules.tick.cron=* * * * * *",
				"agent.schedules.tick.message=tick");
		everySecond.run((a) -> everySecond.run((b) -> {
			assertThat(a.getBean(RunScheduler.class).isRunning()).isTrue();
			assertThat(b.getBean(RunScheduler.class).isRunning()).isTrue();
			long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (queued().size() < 3 && System.nanoTime() < end) {
				Thread.sleep(100);
			}
		}));

		List<String> keys = queued().stream().map((run) -> run.request().idempotencyKey()).toList();
		assertThat(keys).hasSizeGreaterThanOrEqualTo(3).doesNotHaveDuplicates();
		assertThat(keys).allMatch((key) -> key.matches("schedule:tick:\\d+"));
		assertThat(queued()).extracting(Run::sessionId).containsOnly("schedule-tick");
	}

	private List<Run> queued() {
		return this.store.list("schedule-tick", 0, 1000).collectList().block(Duration.ofSeconds(5));
	}

	@Test
	void anInvalidCronFailsStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.schedules.nightly.agent=assistant", "agent.schedules.nightly.cron=0 0 25 * * *",
					"agent.schedules.nightly.message=m")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageStartingWith("agent.schedules.nightly.cron: invalid cron expression '0 0 25 * * *'"));
		this.contextRunner
			.withPropertyValues("agent.schedules.nightly.agent=assistant", "agent.schedules.nightly.message=m")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.schedules.nightly.cron must be set"));
	}

	@Test
	void exactlyOneOfAgentAndWorkflow() {
		this.contextRunner
			.withPropertyValues("agent.schedules.nightly.agent=assistant", "agent.schedules.nightly.workflow=sync",
					"agent.schedules.nightly.cron=0 0 2 * * *")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.schedules.nightly: set exactly one of agent.schedules.nightly.agent "
						+ "and agent.schedules.nightly.workflow (both are set)"));
		this.contextRunner.withPropertyValues("agent.schedules.nightly.cron=0 0 2 * * *")
			.run((context) -> assertThat(context).getFailure().rootCause().hasMessageContaining("(neither is set)"));
		this.contextRunner
			.withPropertyValues("agent.schedules.nightly.agent=assistant", "agent.schedules.nightly.cron=0 0 2 * * *")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.schedules.nightly.message must be set for a schedule of an agent"));
	}

	@Test
	void anUnknownAgentFailsStartup() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
					AgentAutoConfiguration.class, RunScheduleAutoConfiguration.class))
			.withBean("scripted", ChatModel.class, ScriptedChatModel::replaying)
			.withBean(RunStore.class, () -> this.store)
			.withPropertyValues("agent.agents.helper.model=scripted", "agent.schedules.nightly.agent=helpr",
					"agent.schedules.nightly.cron=0 0 2 * * *", "agent.schedules.nightly.message=m")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.schedules.nightly.agent: unknown agent 'helpr'"));
	}

	@Test
	void schedulesWithoutARunStoreFailStartup() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RunScheduleAutoConfiguration.class))
			.withPropertyValues("agent.schedules.nightly.agent=assistant", "agent.schedules.nightly.cron=0 0 2 * * *",
					"agent.schedules.nightly.message=m")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.schedules has schedules [nightly] but there is no RunStore bean"));
	}

	private static @Nullable Throwable configurationFailure(@Nullable Throwable failure) {
		Throwable ex = failure;
		while (ex != null && !(ex instanceof AgentConfigurationException)) {
			ex = ex.getCause();
		}
		return ex;
	}

}
