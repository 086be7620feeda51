package dev.agcore.provider.openai.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /embeddings}. Null components are left out of the JSON.
 *
 * @param model the model
 * @param input the texts
 * @param encodingFormat {@code float}
 * @param dimensions the requested length of the vectors, null for the model's own
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EmbeddingRequest(String model, List<String> input,
		@JsonProperty("encoding_format") String encodingFormat, @Nullable Integer dimensions) {

}
