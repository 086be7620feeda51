package dev.agcore.tool;

import java.util.Map;
import java.util.Objects;

/**
 * Runtime values of one tool call, never shown to the model.
 *
 * @param toolCallId the id of the call, as the model chose it
 * @param sessionId the session the call belongs to
 * @param agentName the agent running the call
 * @param state the caller's state passed with the request; read-only
 */
public record ToolContext(String toolCallId, String sessionId, String agentName, Map<String, Object> state) {

	public ToolContext {
		Objects.requireNonNull(toolCallId, "'toolCallId' must not be null");
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(agentName, "'agentName' must not be null");
		state = Map.copyOf(state);
	}

}
