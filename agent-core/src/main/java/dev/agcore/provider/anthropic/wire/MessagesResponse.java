package dev.agcore.provider.anthropic.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * A message as a non-streamed response returns it, and as {@code message_start} opens a
 * stream (with empty content); or an error body ({@code type: error}).
 *
 * @param type {@code message}, or {@code error}
 * @param id the message id
 * @param model the model that answered
 * @param content the content blocks
 * @param stopReason why the model stopped, null at the start of a stream
 * @param usage the token counts
 * @param error the error of an error body
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MessagesResponse(@Nullable String type, @Nullable String id, @Nullable String model,
		@Nullable List<ContentBlock> content, @JsonProperty("stop_reason") @Nullable String stopReason,
		@Nullable WireUsage usage, @Nullable WireError error) {

}
