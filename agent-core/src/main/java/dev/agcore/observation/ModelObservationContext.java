package dev.agcore.observation;

import io.micrometer.observation.Observation;

/**
 * What a turn's and a model call's observations both know: the agent, the provider and
 * model it requests, and the session.
 *
 * @since 0.1.0
 */
public abstract class ModelObservationContext extends Observation.Context {

	private final String agentName;

	private final String providerName;

	private final String requestModel;

	private final String sessionId;

	/**
	 * Create a context.
	 * @param agentName the agent's name
	 * @param providerName the provider of the model
	 * @param requestModel the model requested
	 * @param sessionId the session (conversation) id
	 */
	protected ModelObservationContext(String agentName, String providerName, String requestModel,
			String sessionId) {
		this.agentName = agentName;
		this.providerName = providerName;
		this.requestModel = requestModel;
		this.sessionId = sessionId;
	}

	public String getAgentName() {
		return this.agentName;
	}

	public String getProviderName() {
		return this.providerName;
	}

	public String getRequestModel() {
		return this.requestModel;
	}

	public String getSessionId() {
		return this.sessionId;
	}

}
