package dev.agcore.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.model.ChatRequest;
import org.jspecify.annotations.Nullable;

/**
 * Composes the system prompt of each model call from its layers, after the agent's
 * middleware ran: the base prompt, the agent's prompt (as middleware left it: a
 * {@code @DynamicPrompt} or an MCP prompt replaces only this layer), the environment, the
 * session context, the request's own instructions, and the answer-structure instructions
 * of a model without a native option. Empty layers are dropped; the others are joined by
 * blank lines.
 */
final class SystemPromptLayers {

	private final String base;

	private final EnvironmentContext environment;

	private final Clock clock;

	SystemPromptLayers(String base, EnvironmentContext environment, Clock clock) {
		this.base = base;
		this.environment = environment;
		this.clock = clock;
	}

	/**
	 * Put the layers around the agent's prompt of a request.
	 * @param request the request after middleware; its system message, if any, is the
	 * agent's layer
	 * @param turn the turn, for its session context, instructions and locale
	 * @param structure the answer-structure instructions, empty for none
	 * @return the request with the composed system prompt, or without one when all layers
	 * are empty
	 */
	ChatRequest compose(ChatRequest request, Turn turn, String structure) {
		List<Message> messages = request.messages();
		boolean hasSystem = !messages.isEmpty() && messages.get(0) instanceof SystemMessage;
		SystemMessage agentLayer = hasSystem ? (SystemMessage) messages.get(0) : null;
		String environment = this.environment.isEmpty() ? "" : this.environment.render(turn.locale(), this.clock);
		String session = turn.session().block();
		if (agentLayer != null && !agentLayer.text().isBlank()
				&& isBlank(this.base, environment, session, turn.instructions(), structure)) {
			// the agent's prompt is the only layer: the request already says it
			return request;
		}
		String prompt = join(this.base, (agentLayer != null) ? agentLayer.text() : "", environment, session,
				turn.instructions(), structure);
		if (prompt.isEmpty() && agentLayer == null) {
			return request;
		}
		List<Message> composed = new ArrayList<>(messages.size() + 1);
		if (!prompt.isEmpty()) {
			composed.add(new SystemMessage(prompt, agentLayer != null && agentLayer.developer()));
		}
		composed.addAll(hasSystem ? messages.subList(1, messages.size()) : messages);
		return new ChatRequest(composed, request.tools(), request.options());
	}

	private static boolean isBlank(@Nullable String... layers) {
		for (String layer : layers) {
			if (layer != null && !layer.isBlank()) {
				return false;
			}
		}
		return true;
	}

	private static String join(@Nullable String... layers) {
		StringBuilder prompt = new StringBuilder();
		for (String layer : layers) {
			if (layer != null && !layer.isBlank()) {
				prompt.append((prompt.length() > 0) ? "\n\n" : "").append(layer);
			}
		}
		return prompt.toString();
	}

}
