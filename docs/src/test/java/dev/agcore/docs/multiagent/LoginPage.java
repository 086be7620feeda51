package dev.agcore.docs.multiagent;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentSession;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

// tag::session[]
@Component
class LoginPage {

	@Autowired
	AgentRegistry agents;

	List<Message> build() {
		AgentSession session = this.agents.session("s1");
		session.call("plan", "Plan a login page");                 // blocking
		session.invoke("build", "Go ahead").block();               // Mono<AgentResult>
		session.stream("build", session.request("Add tests").withUserId("alice"))  // Flux<AgentEvent>
			.blockLast();

		session.turns();      // 3: the turns made through this object (the next turn's index)
		session.usage();      // their tokens, sub-agents included
		session.cost();       // their cost, of the model calls with a price; null when none had one
		session.lastAgent();  // "build"
		return session.history("build").block();  // the conversation as that agent sees it
	}

}
// end::session[]
