package dev.agcore.observation;

import java.util.List;

import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link AgentObservationDocumentation#CHAT} observation knows of a model call:
 * the request when it starts, the response when it ends.
 */
public class ChatObservationContext extends Observation.Context {

	private final String agentName;

	private final String providerName;

	private final String requestModel;

	private final String sessionId;

	private final boolean streaming;

	private @Nullable String responseModel;

	private @Nullable String responseId;

	private List<FinishReason> finishReasons = List.of();

	private Usage usage = Usage.EMPTY;

	/**
	 * Create a context.
	 * @param agentName the agent's name
	 * @param providerName the model's provider
	 * @param requestModel the model requested
	 * @param sessionId the session (conversation) id
	 * @param streaming whether the call is streamed
	 */
	public ChatObservationContext(String agentName, String providerName, String requestModel, String sessionId,
			boolean streaming) {
		this.agentName = agentName;
		this.providerName = providerName;
		this.requestModel = requestModel;
		this.sessionId = sessionId;
		this.streaming = streaming;
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

	public boolean isStreaming() {
		return this.streaming;
	}

	public @Nullable String getResponseModel() {
		return this.responseModel;
	}

	public void setResponseModel(@Nullable String responseModel) {
		this.responseModel = responseModel;
	}

	public @Nullable String getResponseId() {
		return this.responseId;
	}

	public void setResponseId(@Nullable String responseId) {
		this.responseId = responseId;
	}

	public List<FinishReason> getFinishReasons() {
		return this.finishReasons;
	}

	public void setFinishReasons(List<FinishReason> finishReasons) {
		this.finishReasons = List.copyOf(finishReasons);
	}

	public Usage getUsage() {
		return this.usage;
	}

	public void setUsage(Usage usage) {
		this.usage = usage;
	}

}
