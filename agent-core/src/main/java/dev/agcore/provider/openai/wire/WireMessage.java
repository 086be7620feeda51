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
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}; absent in
 * most deltas
 * @param content the text; written even when null, since an assistant message with only
 * tool calls carries {@code "content": null}
 * @param toolCalls the tool calls of an assistant message
 * @param toolCallId the call a {@code tool} message answers
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireMessage(@Nullable String role, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String content,
		@JsonProperty("tool_calls") @Nullable List<WireToolCall> toolCalls,
		@JsonProperty("tool_call_id") @Nullable String toolCallId) {

	public static WireMessage of(String role, String content) {
		return new WireMessage(role, content, null, null);
	}

}
