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
 * @param toolChoice {@code auto}, {@code none}, {@code required} or
 * {@code {"type":"function","function":{"name":...}}}
 * @param temperature the sampling temperature
 * @param topP nucleus sampling probability mass
 * @param maxTokens the maximum number of tokens to generate
 * @param maxCompletionTokens the same as {@code max_tokens}, under OpenAI's newer name
 * @param stop stop sequences, null for none
 * @param seed the sampling seed
 * @param randomSeed the sampling seed under Mistral's name
 * @param frequencyPenalty penalty by frequency
 * @param presencePenalty penalty by presence
 * @param reasoningEffort how hard a reasoning model thinks
 * @param responseFormat the shape of the answer
 * @param stream whether to stream, null for a plain request
 * @param streamOptions stream options, when streaming
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChatCompletionRequest(String model, List<WireMessage> messages, @Nullable List<WireTool> tools,
		@JsonProperty("tool_choice") @Nullable Object toolChoice, @Nullable Double temperature,
		@JsonProperty("top_p") @Nullable Double topP, @JsonProperty("max_tokens") @Nullable Integer maxTokens,
		@JsonProperty("max_completion_tokens") @Nullable Integer maxCompletionTokens, @Nullable List<String> stop,
		@Nullable Long seed, @JsonProperty("random_seed") @Nullable Long randomSeed,
		@JsonProperty("frequency_penalty") @Nullable Double frequencyPenalty,
		@JsonProperty("presence_penalty") @Nullable Double presencePenalty,
		@JsonProperty("reasoning_effort") @Nullable String reasoningEffort,
		@JsonProperty("response_format") @Nullable WireResponseFormat responseFormat, @Nullable Boolean stream,
		@JsonProperty("stream_options") @Nullable StreamOptions streamOptions) {

	/**
	 * Options of a streamed request.
	 *
	 * @param includeUsage whether to send a last chunk with the usage
	 */
	public record StreamOptions(@JsonProperty("include_usage") boolean includeUsage) {

	}

	/**
	 * A named tool the model must call.
	 *
	 * @param type always {@code function}
	 * @param function the function
	 */
	public record NamedToolChoice(String type, Name function) {

		/**
		 * The name of the function.
		 *
		 * @param name the tool name
		 */
		public record Name(String name) {

		}

	}

}
