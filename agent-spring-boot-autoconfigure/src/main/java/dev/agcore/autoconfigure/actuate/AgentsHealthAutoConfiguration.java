package dev.agcore.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunStore;
import dev.agcore.workflow.CheckpointStore;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.ReactiveHealthContributor;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@code agents} health
 * contributor: under {@code stores}, one indicator per store of the agents that exists
 * (conversations, key-value memory, runs, checkpoints), each reading a key nobody writes
 * with a timeout of {@value #TIMEOUT_SECONDS} seconds; then each
 * {@link AgentHealthContribution}: the MCP servers under {@code mcp}, the providers that
 * opted in under {@code models}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = AgentAutoConfiguration.class)
@ConditionalOnClass(ReactiveHealthIndicator.class)
public final class AgentsHealthAutoConfiguration {

	static final long TIMEOUT_SECONDS = 5;

	@Bean
	@ConditionalOnMissingBean(name = "agentsHealthContributor")
	@ConditionalOnBean(ConversationStore.class)
	CompositeReactiveHealthContributor agentsHealthContributor(ObjectProvider<ConversationStore> conversations,
			ObjectProvider<KeyValueStore> keyValues, ObjectProvider<RunStore> runs,
			ObjectProvider<CheckpointStore> checkpoints, ObjectProvider<AgentHealthContribution> parts) {
		Duration timeout = Duration.ofSeconds(TIMEOUT_SECONDS);
		Map<String, ReactiveHealthContributor> stores = new LinkedHashMap<>();
		conversations.ifUnique((store) -> stores.put("conversations",
				new StoreHealthIndicator(store, () -> store.load(StoreHealthIndicator.PROBE_ID), timeout)));
		keyValues.ifUnique((store) -> stores.put("keyValue", new StoreHealthIndicator(store,
				() -> store.find(StoreHealthIndicator.PROBE_ID, StoreHealthIndicator.PROBE_ID), timeout)));
		// an unknown run is an answer: the store was reached
		runs.ifUnique((store) -> stores.put("runs", new StoreHealthIndicator(store,
				() -> store.find(StoreHealthIndicator.PROBE_ID)
					.onErrorResume(RunNotFoundException.class, (ex) -> Mono.empty()),
				timeout)));
		checkpoints.ifUnique((store) -> stores.put("checkpoints",
				new StoreHealthIndicator(store, () -> store.load(StoreHealthIndicator.PROBE_ID), timeout)));
		Map<String, ReactiveHealthContributor> agents = new LinkedHashMap<>();
		agents.put("stores", CompositeReactiveHealthContributor.fromMap(stores));
		parts.orderedStream().forEach((part) -> agents.put(part.name(), part.contributor()));
		return CompositeReactiveHealthContributor.fromMap(agents);
	}

}
