package dev.agcore.docs.security;

// tag::log-lines[]
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.support.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class LoggingChatController {

	private static final Logger log = LoggerFactory.getLogger(LoggingChatController.class);

	private final Agent agent;

	LoggingChatController(Agent agent) {
		this.agent = agent;
	}

	@PostMapping("/chat")
	Mono<String> chat(@RequestParam String session, @RequestBody String message) {
		// the session id is the caller's text: escaped, it cannot start a line of its own
		log.info("Chat turn in session {}", LogSafe.text(session));
		return agent.invoke(AgentRequest.of(session, message)).map(AgentResult::output);
	}

}
// end::log-lines[]
