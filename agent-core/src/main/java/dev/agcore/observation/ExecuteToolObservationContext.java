package dev.agcore.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link AgentObservationDocumentation#EXECUTE_TOOL} observation knows of a tool
 * call.
 */
public class ExecuteToolObservationContext extends Observation.Context {

	private final String agentName;

	private final String toolName;

	private final String toolCallId;

	private final String sessionId;

	private @Nullable ToolOutcome outcome;

	/**
	 * Create a context.
	 * @param agentName the agent's name
	 * @param toolName the tool's name: one of the agent's tools, or {@code unknown} (the
	 * name the model called comes from model output and is never a tag value)
	 * @param toolCallId the call's id
	 * @param sessionId the session (conversation) id
	 */
	public ExecuteToolObservationContext(String agentName, String toolName, String toolCallId, String sessionId) {
		this.agentName = agentName;
		this.toolName = toolName;
		this.toolCallId = toolCallId;
		this.sessionId = sessionId;
	}

	public String getAgentName() {
		return this.agentName;
	}

	public String getToolName() {
		return this.toolName;
	}

	public String getToolCallId() {
		return this.toolCallId;
	}

	public String getSessionId() {
		return this.sessionId;
	}

	public @Nullable ToolOutcome getOutcome() {
		return this.outcome;
	}

	public void setOutcome(@Nullable ToolOutcome outcome) {
		this.outcome = outcome;
	}

}
