package dev.agcore.provider.openai.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * A message as sent in a request, received in a response, or the {@code delta} of a
 * streamed chunk.
 *
 * @param role {@code system}, {@code developer}, {@code user}, {@code assistant} or
 * {@code tool}; absent in most deltas
 * @param content the text, or a list of {@link WireContentPart}s in a user message with
 * media; written even when null, since an assistant message with only tool calls
 * carries {@code "content": null}
 * @param toolCalls the tool calls of an assistant message
 * @param toolCallId the call a {@code tool} message answers
 * @param name the participant's name
 * @param refusal the model's refusal, in responses
 * @param reasoningContent the model's reasoning (DeepSeek, Qwen, vLLM); sent back only
 * where the server requires it
 * @param reasoning the model's reasoning (OpenRouter), in responses
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireMessage(@Nullable String role, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Object content,
		@JsonProperty("tool_calls") @Nullable List<WireToolCall> toolCalls,
		@JsonProperty("tool_call_id") @Nullable String toolCallId, @Nullable String name, @Nullable String refusal,
		@JsonProperty("reasoning_content") @Nullable String reasoningContent, @Nullable String reasoning) {

	public WireMessage(@Nullable String role, @Nullable Object content, @Nullable List<WireToolCall> toolCalls,
			@Nullable String toolCallId) {
		this(role, content, toolCalls, toolCallId, null, null, null, null);
	}

	public static WireMessage of(String role, String content) {
		return new WireMessage(role, content, null, null);
	}

	/**
	 * Return the content when it is text.
	 * @return the text, null when absent or not text
	 */
	public @Nullable String text() {
		return (this.content instanceof String text) ? text : null;
	}

}
