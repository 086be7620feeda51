package dev.agcore.benchmarks.startup.app;

import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The getting-started guide's controller: the configured agent behind {@code POST /chat}.
 */
@RestController
class ChatController {

	private final Agent agent;

	ChatController(Agent agent) {
		this.agent = agent;
	}

	@PostMapping("/chat")
	Mono<String> chat(@RequestParam String session, @RequestBody String message) {
		return this.agent.invoke(AgentRequest.of(session, message)).map(AgentResult::output);
	}

}
