package dev.agcore.docs.gettingstarted;

// tag::controller[]
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import reactor.core.publisher.Mono;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ChatController {

	private final Agent agent;

	ChatController(Agent agent) {
		this.agent = agent;
	}

	@PostMapping("/chat")
	Mono<String> chat(@RequestParam String session, @RequestBody String message) {
		return agent.invoke(AgentRequest.of(session, message)).map(AgentResult::output);
	}

}
// end::controller[]
