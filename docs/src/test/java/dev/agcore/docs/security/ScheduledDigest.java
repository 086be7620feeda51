package dev.agcore.docs.security;

// tag::explicit[]
import dev.agcore.AgentPrincipal;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import reactor.core.publisher.Mono;

class ScheduledDigest {

	private final Agent agent;

	ScheduledDigest(Agent agent) {
		this.agent = agent;
	}

	// trusted code that runs a turn for a user without a request: the principal it names wins
	Mono<AgentResult> digestFor(String user, String sessionId) {
		return this.agent.invoke(AgentRequest.of(sessionId, "Summarise my day"))
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of(user, "ROLE_USER")));
	}

}
// end::explicit[]
