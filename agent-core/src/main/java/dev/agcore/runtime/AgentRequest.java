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

	/**
	 * The longest session id: ids are keys in stores and parts of URLs, and one that can
	 * be written must be readable back through {@code GET .../sessions/{id}/messages}.
	 */
	public static final int MAX_SESSION_ID_LENGTH = 256;

	public AgentRequest {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(message, "'message' must not be null");
		if (sessionId.isBlank()) {
			throw new IllegalArgumentException("'sessionId' must not be blank");
		}
		if (sessionId.length() > MAX_SESSION_ID_LENGTH) {
			throw new IllegalArgumentException("'sessionId' must be at most " + MAX_SESSION_ID_LENGTH
					+ " characters, was " + sessionId.length());
		}
		state = Map.copyOf(state);
	}

	public static AgentRequest of(String sessionId, String message) {
		return new AgentRequest(sessionId, message, Map.of());
	}

}
