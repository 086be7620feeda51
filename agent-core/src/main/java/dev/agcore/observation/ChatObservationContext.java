package dev.agcore.observation;

import java.util.List;

import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link AgentObservationDocumentation#CHAT} observation knows of a model call:
 * the request when it starts, the response when it ends.
 */
public class ChatObservationContext extends ModelObservationContext {

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
		super(agentName, providerName, requestModel, sessionId);
		this.streaming = streaming;
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
