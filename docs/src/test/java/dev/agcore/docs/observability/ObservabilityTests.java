package dev.agcore.docs.observability;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ChatObservationContext;
import dev.agcore.observation.InvokeAgentObservationContext;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot.Scope;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import reactor.util.context.Context;

import static org.assertj.core.api.Assertions.assertThat;

/** The Java snippets of docs/observability.md; its YAML ones start in YamlSnippetsStartTests. */
class ObservabilityTests {

	private final List<Observation.Context> observed = new CopyOnWriteArrayList<>();

	private final ObservationRegistry registry = ObservationRegistry.create();

	ObservabilityTests() {
		this.registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				ObservabilityTests.this.observed.add(context);
			}

		});
	}

	@Test
	void anAgentWithARegistryObservesItsTurnAndModelCalls() {
		Agent agent = ObservedAgents.helper(ScriptedChatModel.replaying(ScriptedChatModel.text("Hi.")), this.registry);
		agent.call("s1", "Hello");
		assertThat(this.observed).hasAtLeastOneElementOfType(ChatObservationContext.class);
		assertThat(this.observed).hasAtLeastOneElementOfType(InvokeAgentObservationContext.class);
	}

	@Test
	void theConventionAddsTheTeamToChatObservations() {
		Agent agent = Agent.builder()
			.name("helper")
			.model(ScriptedChatModel.replaying(ScriptedChatModel.text("Hi.")))
			.observations(AgentObservations.builder(this.registry)
				.chatConvention(new ObservationConventions().chatObservationConvention())
				.build())
			.build();
		agent.call("s1", "Hello");
		assertThat(this.observed).filteredOn(ChatObservationContext.class::isInstance)
			.singleElement()
			.satisfies((context) -> assertThat(context.getLowCardinalityKeyValue("team").getValue()).isEqualTo("support"));
	}

	@Test
	void theAccessorSetsTheTenantFromTheReactorContext() {
		ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder()
			.contextRegistry(new ContextRegistry().loadContextAccessors().registerThreadLocalAccessor(new TenantAccessor()))
			.build();
		try (Scope scope = snapshots.setThreadLocalsFrom(Context.of(TenantAccessor.KEY, "acme"))) {
			assertThat(TenantHolder.get()).isEqualTo("acme");
		}
		assertThat(TenantHolder.get()).isNull();
	}

}
