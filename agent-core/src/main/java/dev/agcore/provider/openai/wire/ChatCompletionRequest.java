package dev.agcore.provider.openai.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /chat/completions}. Null components are left out of the JSON.
 *
 * @param model the model
 * @param messages the conversation
 * @param tools the tools, null when there are none (an empty list is rejected by some
 * servers)
 * @param temperature the sampling temperature
 * @param maxTokens the maximum number of tokens to generate
 * @param stream whether to stream, null for a plain request
 * @param streamOptions stream options, when streaming
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChatCompletionRequest(String model, List<WireMessage> messages, @Nullable List<WireTool> tools,
		@Nullable Double temperature, @JsonProperty("max_tokens") @Nullable Integer maxTokens,
		@Nullable Boolean stream, @JsonProperty("stream_options") @Nullable StreamOptions streamOptions) {

	/**
	 * Options of a streamed request.
	 *
	 * @param includeUsage whether to send a last chunk with the usage
	 */
	public record StreamOptions(@JsonProperty("include_usage") boolean includeUsage) {

	}

}
