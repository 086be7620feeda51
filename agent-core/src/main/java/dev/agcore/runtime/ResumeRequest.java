package dev.agcore.runtime;

import java.util.Map;
import java.util.Objects;

/**
 * Decisions that resume a turn paused for approval.
 *
 * @param sessionId the session whose turn is paused
 * @param decisions one decision per pending tool call id
 * @param state caller state for the tools, as in {@link AgentRequest#state()}
 */
public record ResumeRequest(String sessionId, Map<String, ToolDecision> decisions, Map<String, Object> state) {

	public ResumeRequest {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		decisions = Map.copyOf(decisions);
		state = Map.copyOf(state);
	}

	public static ResumeRequest of(String sessionId, Map<String, ToolDecision> decisions) {
		return new ResumeRequest(sessionId, decisions, Map.of());
	}

}
