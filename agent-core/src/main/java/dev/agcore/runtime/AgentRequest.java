package dev.agcore.runtime;

import java.util.Map;
import java.util.Objects;

/**
 * One user turn sent to an agent.
 *
 * @param sessionId the conversation this turn belongs to
 * @param message what the user said
 * @param state caller state passed to tools through
 * {@link dev.agcore.tool.ToolContext#state()}; never sent to the model
 */
public record AgentRequest(String sessionId, String message, Map<String, Object> state) {

	public AgentRequest {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(message, "'message' must not be null");
		if (sessionId.isBlank()) {
			throw new IllegalArgumentException("'sessionId' must not be blank");
		}
		state = Map.copyOf(state);
	}

	public static AgentRequest of(String sessionId, String message) {
		return new AgentRequest(sessionId, message, Map.of());
	}

}
