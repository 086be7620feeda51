package dev.agcore.provider.openai.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The body of a successful non-streamed response.
 *
 * @param id the completion id
 * @param model the model that answered
 * @param choices the choices; we ask for one
 * @param usage the tokens consumed
 * @param error an error, which some servers send with status 200
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChatCompletionResponse(@Nullable String id, @Nullable String model, @Nullable List<Choice> choices,
		@Nullable WireUsage usage, @Nullable WireError error) {

	/**
	 * One choice.
	 *
	 * @param index the choice index
	 * @param message the assistant message
	 * @param finishReason why the model stopped
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Choice(@Nullable Integer index, @Nullable WireMessage message,
			@JsonProperty("finish_reason") @Nullable String finishReason) {

	}

}
