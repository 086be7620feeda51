package dev.agcore.autoconfigure.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.support.PropertyChecks;
import dev.agcore.run.InMemoryRunStore;
import dev.agcore.run.RunEventStream;
import dev.agcore.run.RunExecutor;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunWorker;
import dev.agcore.run.RunWorkerSettings;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.CallerResolver;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for background runs
 * ({@code agent.runs.*}): a {@link RunStore} (in memory unless a JDBC or Redis store is
 * configured), the {@link RunEventStream}, the agent {@link RunExecutor}, the
 * {@link RunWorker} of this instance (unless {@code agent.runs.worker.enabled=false}),
 * started after the context is refreshed and stopped before shutdown, and the
 * {@link Runs} facade.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = AgentAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration")
@ConditionalOnBooleanProperty(name = "agent.runs.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RunProperties.class)
public final class RunAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(RunStore.class)
	InMemoryRunStore runStore() {
		return new InMemoryRunStore();
	}

	@Bean
	@ConditionalOnMissingBean
	RunEventStream runEventStream(RunStore store, RunProperties properties) {
		return new RunEventStream(store, PropertyChecks.positive("agent.runs.poll-interval", properties.getPollInterval()));
	}

	@Bean
	@ConditionalOnBean(AgentRegistry.class)
	@ConditionalOnMissingBean
	AgentRunExecutor agentRunExecutor(AgentRegistry agents, ObjectProvider<CallerResolver> callers) {
		return new AgentRunExecutor(agents, callers.getIfUnique(() -> CallerResolver.NONE).secured());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "agent.runs.worker.enabled", matchIfMissing = true)
	RunWorker runWorker(RunStore store, ObjectProvider<RunExecutor> executors, RunProperties properties,
			ObjectProvider<MeterRegistry> registry) {
		return new RunWorker(store, executorsByKind(executors.orderedStream().toList()).values(), settings(properties),
				registry.getIfUnique());
	}

	@Bean
	@ConditionalOnMissingBean
	Runs runs(RunStore store, RunEventStream events, ObjectProvider<RunExecutor> executors,
			ObjectProvider<RunWorker> worker) {
		return new Runs(store, events, executorsByKind(executors.orderedStream().toList()), worker.getIfUnique());
	}

	@Bean
	RunLifecycle runLifecycle(RunStore store, ObjectProvider<RunWorker> worker, RunProperties properties) {
		return new RunLifecycle(store, worker.getIfUnique(),
				PropertyChecks.positive("agent.runs.retention", properties.getRetention()));
	}

	static Map<String, RunExecutor> executorsByKind(List<RunExecutor> executors) {
		try {
			return RunWorker.byKind(executors);
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(ex.getMessage(),
					"Define one RunExecutor bean per kind: remove or rename one of them.");
		}
	}

	static RunWorkerSettings settings(RunProperties properties) {
		Duration lease = PropertyChecks.positive("agent.runs.lease", properties.getLease());
		Duration heartbeat = PropertyChecks.positive("agent.runs.heartbeat-interval",
				properties.getHeartbeatInterval());
		if (heartbeat.compareTo(lease) >= 0) {
			throw new AgentConfigurationException(
					"agent.runs.heartbeat-interval (" + heartbeat + ") must be shorter than agent.runs.lease ("
							+ lease + "), or leases expire between heartbeats and other instances take runs over",
					"Set agent.runs.heartbeat-interval to a fraction of agent.runs.lease, e.g. a sixth.");
		}
		return new RunWorkerSettings(
				PropertyChecks.atLeastOne("agent.runs.worker.concurrency", properties.getWorker().getConcurrency()),
				lease, heartbeat, PropertyChecks.positive("agent.runs.poll-interval", properties.getPollInterval()),
				PropertyChecks.atLeastOne("agent.runs.max-per-session", properties.getMaxPerSession()),
				PropertyChecks.atLeastOne("agent.runs.max-attempts", properties.getMaxAttempts()),
				PropertyChecks.positive("agent.runs.deadline", properties.getDeadline()), RunWorkerSettings.newOwner());
	}

}
