package dev.agcore.sample;

import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The README's quick-start controller, as a user writes it: an {@link Agent} injected in
 * the constructor, next to the starter's own {@code /agents} routes. The sample has two
 * agents, so it names the one it wants.
 */
@RestController
class ChatController {

	private final Agent agent;

	ChatController(@Qualifier("assistant") Agent agent) {
		this.agent = agent;
	}

	@PostMapping("/chat")
	Mono<String> chat(@RequestParam String session, @RequestBody String message) {
		return this.agent.invoke(AgentRequest.of(session, message)).map(AgentResult::output);
	}

}
