package dev.agcore.docs.middleware;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.client.WebClient;

// tag::policy-prompt[]
class PolicyPrompt implements AgentMiddleware {

	private final WebClient policies;

	PolicyPrompt(WebClient policies) {
		this.policies = policies;
	}

	@Override
	public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
		return this.policies.get().uri("/policy/{user}", context.state().get("user"))
			.retrieve()
			.bodyToMono(String.class)
			.map((policy) -> {
				List<Message> messages = new ArrayList<>(request.messages());
				messages.add(new SystemMessage(policy));
				return new ChatRequest(messages, request.tools(), request.options());
			});
	}

}
// end::policy-prompt[]
