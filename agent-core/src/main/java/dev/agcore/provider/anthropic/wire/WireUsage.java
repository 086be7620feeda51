package dev.agcore.provider.anthropic.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * Token counts as Anthropic reports them. {@code input_tokens} excludes the tokens read
 * from or written to the cache.
 *
 * @param inputTokens uncached input tokens
 * @param outputTokens output tokens
 * @param cacheCreationInputTokens input tokens written to the cache
 * @param cacheReadInputTokens input tokens read from the cache
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireUsage(@JsonProperty("input_tokens") @Nullable Long inputTokens,
		@JsonProperty("output_tokens") @Nullable Long outputTokens,
		@JsonProperty("cache_creation_input_tokens") @Nullable Long cacheCreationInputTokens,
		@JsonProperty("cache_read_input_tokens") @Nullable Long cacheReadInputTokens) {

	/**
	 * Return these counts with every count the later report gives replacing this one's:
	 * a stream's {@code message_delta} counts are cumulative and may omit the input.
	 * @param later the later report, may be null
	 * @return the combined counts
	 */
	public WireUsage updatedBy(@Nullable WireUsage later) {
		if (later == null) {
			return this;
		}
		return new WireUsage(or(later.inputTokens, this.inputTokens), or(later.outputTokens, this.outputTokens),
				or(later.cacheCreationInputTokens, this.cacheCreationInputTokens),
				or(later.cacheReadInputTokens, this.cacheReadInputTokens));
	}

	private static @Nullable Long or(@Nullable Long value, @Nullable Long fallback) {
		return (value != null) ? value : fallback;
	}

}
