package dev.agcore.provider.ollama.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * A message as sent in a request or received in a response (whole, or a piece of it in a
 * streamed line).
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content the text; written even when empty
 * @param thinking the model's reasoning, apart from the content
 * @param images base64-encoded images of a user message
 * @param toolCalls the tool calls of an assistant message
 * @param toolName the tool a {@code tool} message answers
 * @param toolCallId the call a {@code tool} message answers, for servers that match by id
 * (Ollama itself matches by name and order)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OllamaMessage(@Nullable String role, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String content,
		@Nullable String thinking, @Nullable List<String> images,
		@JsonProperty("tool_calls") @Nullable List<OllamaToolCall> toolCalls,
		@JsonProperty("tool_name") @Nullable String toolName,
		@JsonProperty("tool_call_id") @Nullable String toolCallId) {

}
