package dev.agcore.docs.memory;

import java.util.List;

import dev.agcore.AgentPrincipal;
import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.SessionInfo;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

// tag::sessions[]
@Component
class UserSessions {

	@Autowired
	AgentSessions sessions;

	List<SessionInfo> forget() {
		List<SessionInfo> page = this.sessions.list("alice", 0, 20).block();   // newest first
		// SessionInfo(sessionId, agentName, createdAt, updatedAt)
		this.sessions.delete("s-42", "alice").block();
		return page;
	}

}
// end::sessions[]

/** A turn of a user, from docs/memory.md. */
class UserTurns {

	static Mono<AgentResult> hello(Agent agent) {
		// tag::user[]
		// with Spring Security, the turn's user is its principal: here named by trusted code
		Mono<AgentResult> turn = agent.invoke(AgentRequest.of("s-42", "Hello"))
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice")));
		// without it, a label the caller chooses: agent.invoke(AgentRequest.of("s-42", "Hello").withUserId("alice"))
		// end::user[]
		return turn;
	}

}
