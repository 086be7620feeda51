package dev.agcore.benchmarks.startup.app;

import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The baseline's one endpoint, the same route as the agent application's.
 */
@RestController
class ChatController {

	@PostMapping("/chat")
	Mono<String> chat(@RequestParam String session, @RequestBody String message) {
		return Mono.just(message);
	}

}
