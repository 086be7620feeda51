package dev.agcore.provider.anthropic.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One content block of a response, or the block a {@code content_block_start} event
 * opens.
 *
 * @param type {@code text}, {@code tool_use}, {@code thinking}, {@code redacted_thinking}
 * or a type we do not use (server tools, citations)
 * @param text the text of a {@code text} block
 * @param id the call id of a {@code tool_use} block
 * @param name the tool name of a {@code tool_use} block
 * @param input the arguments object of a {@code tool_use} block (empty when streamed)
 * @param thinking the reasoning text of a {@code thinking} block
 * @param signature the signature of a {@code thinking} block
 * @param data the encrypted reasoning of a {@code redacted_thinking} block
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ContentBlock(@Nullable String type, @Nullable String text, @Nullable String id, @Nullable String name,
		@Nullable JsonNode input, @Nullable String thinking, @Nullable String signature, @Nullable String data) {

}
