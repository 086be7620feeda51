package dev.agcore.autoconfigure.run;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.run.RunStore;
import dev.agcore.run.schedule.RunSchedule;
import dev.agcore.run.schedule.RunScheduler;
import dev.agcore.runtime.AgentRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for schedules of background runs:
 * when {@code agent.schedules} has entries, a {@link RunScheduler} queues their runs in
 * the {@link RunStore}, once per fire time across all instances, ticking every second
 * while the context runs.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "dev.agcore.autoconfigure.run.RunAutoConfiguration",
		"dev.agcore.autoconfigure.agent.AgentAutoConfiguration" })
@Conditional(RunScheduleAutoConfiguration.OnSchedules.class)
public final class RunScheduleAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RunScheduler runScheduler(Environment environment, ObjectProvider<RunStore> store,
			ObjectProvider<AgentRegistry> agents) {
		Map<String, RunScheduleProperties> configured = RunSchedules.bind(environment);
		List<RunSchedule> schedules = RunSchedules.schedules(configured, agents.getIfAvailable());
		RunStore runStore = store.getIfAvailable();
		if (runStore == null) {
			throw new AgentConfigurationException(
					RunSchedules.PREFIX + " has schedules " + configured.keySet() + " but there is no RunStore bean",
					"Switch background runs on (see docs/runs.md), which provides the RunStore the schedules "
							+ "queue their runs in, or remove " + RunSchedules.PREFIX + ".");
		}
		return new RunScheduler(runStore, schedules, Clock.systemUTC());
	}

	@Bean
	RunSchedulerLifecycle runSchedulerLifecycle(RunScheduler scheduler) {
		return new RunSchedulerLifecycle(scheduler);
	}

	/** Starts and stops the scheduler with the context. */
	static final class RunSchedulerLifecycle implements SmartLifecycle {

		private final RunScheduler scheduler;

		RunSchedulerLifecycle(RunScheduler scheduler) {
			this.scheduler = scheduler;
		}

		@Override
		public void start() {
			this.scheduler.start(RunScheduler.DEFAULT_TICK);
		}

		@Override
		public void stop() {
			this.scheduler.stop();
		}

		@Override
		public boolean isRunning() {
			return this.scheduler.isRunning();
		}

	}

	/** Matches when {@code agent.schedules} has at least one entry. */
	static final class OnSchedules extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Map<String, RunScheduleProperties> schedules = RunSchedules.bind(context.getEnvironment());
			return schedules.isEmpty() ? ConditionOutcome.noMatch("no " + RunSchedules.PREFIX + " entries")
					: ConditionOutcome.match(RunSchedules.PREFIX + " has " + schedules.keySet());
		}

	}

}
