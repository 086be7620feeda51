package dev.agcore.provider.openai.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * Token usage.
 *
 * @param promptTokens tokens in the prompt
 * @param completionTokens tokens generated
 * @param totalTokens the total, as the server counts it
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireUsage(@JsonProperty("prompt_tokens") @Nullable Long promptTokens,
		@JsonProperty("completion_tokens") @Nullable Long completionTokens,
		@JsonProperty("total_tokens") @Nullable Long totalTokens) {

}
