package dev.agcore.model;

import java.util.List;
import java.util.Objects;

import dev.agcore.message.Message;
import dev.agcore.tool.ToolSpec;

/**
 * One request to a {@link ChatModel}.
 *
 * @param messages the conversation so far, oldest first
 * @param tools the tools the model may call; empty for none
 * @param options per-request options; {@link ChatOptions#DEFAULTS} for the model's defaults
 */
public record ChatRequest(List<Message> messages, List<ToolSpec> tools, ChatOptions options) {

	public ChatRequest {
		messages = List.copyOf(messages);
		tools = List.copyOf(tools);
		Objects.requireNonNull(options, "'options' must not be null");
	}

	public static ChatRequest of(List<Message> messages) {
		return new ChatRequest(messages, List.of(), ChatOptions.DEFAULTS);
	}

	public static ChatRequest of(List<Message> messages, List<ToolSpec> tools) {
		return new ChatRequest(messages, tools, ChatOptions.DEFAULTS);
	}

}
