package dev.agcore.model;

import java.util.Objects;

import dev.agcore.message.AssistantMessage;

/**
 * The complete answer of a model to one request.
 *
 * @param message the assistant message, with text and/or tool calls
 * @param usage the tokens consumed; {@link Usage#EMPTY} when the server did not say
 * @param finishReason why the model stopped
 * @param model the model that answered, as the server reported it (may be empty)
 */
public record ChatResponse(AssistantMessage message, Usage usage, FinishReason finishReason, String model) {

	public ChatResponse {
		Objects.requireNonNull(message, "'message' must not be null");
		Objects.requireNonNull(usage, "'usage' must not be null");
		Objects.requireNonNull(finishReason, "'finishReason' must not be null");
		model = (model != null) ? model : "";
	}

	public static ChatResponse of(AssistantMessage message) {
		return new ChatResponse(message, Usage.EMPTY,
				message.hasToolCalls() ? FinishReason.TOOL_CALLS : FinishReason.STOP, "");
	}

}
