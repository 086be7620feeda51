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
 * @param promptTokensDetails details of the prompt tokens (OpenAI)
 * @param completionTokensDetails details of the generated tokens (OpenAI)
 * @param promptCacheHitTokens prompt tokens read from the cache (DeepSeek)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireUsage(@JsonProperty("prompt_tokens") @Nullable Long promptTokens,
		@JsonProperty("completion_tokens") @Nullable Long completionTokens,
		@JsonProperty("total_tokens") @Nullable Long totalTokens,
		@JsonProperty("prompt_tokens_details") @Nullable PromptDetails promptTokensDetails,
		@JsonProperty("completion_tokens_details") @Nullable CompletionDetails completionTokensDetails,
		@JsonProperty("prompt_cache_hit_tokens") @Nullable Long promptCacheHitTokens) {

	/**
	 * Details of the prompt tokens.
	 *
	 * @param cachedTokens tokens read from the prompt cache
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record PromptDetails(@JsonProperty("cached_tokens") @Nullable Long cachedTokens) {

	}

	/**
	 * Details of the generated tokens.
	 *
	 * @param reasoningTokens tokens spent on reasoning
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record CompletionDetails(@JsonProperty("reasoning_tokens") @Nullable Long reasoningTokens) {

	}

}
