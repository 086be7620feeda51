package dev.agcore.provider.openai.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The JSON of one {@code data:} event of a streamed response.
 *
 * @param id the completion id
 * @param model the model that answered
 * @param choices the choices; empty in the final usage-only chunk
 * @param usage the tokens consumed, in the final chunk when {@code include_usage} was
 * asked for
 * @param error an error reported mid-stream
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChatCompletionChunk(@Nullable String id, @Nullable String model, @Nullable List<Choice> choices,
		@Nullable WireUsage usage, @Nullable WireError error) {

	/**
	 * One choice of a chunk.
	 *
	 * @param index the choice index
	 * @param delta what this chunk adds
	 * @param finishReason why the model stopped, in the last chunk of the choice
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Choice(@Nullable Integer index, @Nullable WireMessage delta,
			@JsonProperty("finish_reason") @Nullable String finishReason) {

	}

}
