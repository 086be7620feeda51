package dev.agcore.docs.observability;

import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import io.micrometer.observation.ObservationRegistry;

/** An agent built in Java that records observations, from docs/observability.md. */
class ObservedAgents {

	static Agent helper(ChatModel model, ObservationRegistry observationRegistry) {
		// tag::builder[]
		Agent agent = Agent.builder()
			.name("helper")
			.model(model)
			.observationRegistry(observationRegistry) // or .observations(AgentObservations.builder(registry)...build())
			.build();
		// end::builder[]
		return agent;
	}

}
