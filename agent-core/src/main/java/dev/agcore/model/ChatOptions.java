package dev.agcore.model;

import org.jspecify.annotations.Nullable;

/**
 * Per-request options; a null component means "use the model's default".
 *
 * @param model the model to use instead of the configured one
 * @param temperature the sampling temperature
 * @param maxTokens the maximum number of tokens to generate
 */
public record ChatOptions(@Nullable String model, @Nullable Double temperature, @Nullable Integer maxTokens) {

	/** Options that change nothing. */
	public static final ChatOptions DEFAULTS = new ChatOptions(null, null, null);

}
