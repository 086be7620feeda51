package dev.agcore.observation;

import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link AgentObservationDocumentation#INVOKE_AGENT} observation knows of a turn:
 * set when the turn starts, completed when it ends.
 */
public class InvokeAgentObservationContext extends ModelObservationContext {

	private @Nullable String outcome;

	private Usage usage = Usage.EMPTY;

	private int modelCalls = -1;

	private int toolCalls = -1;

	/**
	 * Create a context.
	 * @param agentName the agent's name
	 * @param providerName the provider of the agent's model
	 * @param requestModel the model the turn requests
	 * @param sessionId the session (conversation) id
	 */
	public InvokeAgentObservationContext(String agentName, String providerName, String requestModel,
			String sessionId) {
		super(agentName, providerName, requestModel, sessionId);
	}

	/**
	 * Return how the turn ended: {@code completed}, {@code max_iterations},
	 * {@code interrupted}, {@code error} or {@code cancelled}; null while it runs.
	 * @return the outcome
	 */
	public @Nullable String getOutcome() {
		return this.outcome;
	}

	public void setOutcome(@Nullable String outcome) {
		this.outcome = outcome;
	}

	public Usage getUsage() {
		return this.usage;
	}

	public void setUsage(Usage usage) {
		this.usage = usage;
	}

	/**
	 * Return the model calls the turn made, or -1 when unknown (it failed).
	 * @return the model calls
	 */
	public int getModelCalls() {
		return this.modelCalls;
	}

	public void setModelCalls(int modelCalls) {
		this.modelCalls = modelCalls;
	}

	/**
	 * Return the tool calls the turn made, or -1 when unknown (it failed).
	 * @return the tool calls
	 */
	public int getToolCalls() {
		return this.toolCalls;
	}

	public void setToolCalls(int toolCalls) {
		this.toolCalls = toolCalls;
	}

}
