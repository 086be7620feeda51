package dev.agcore.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

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

	/**
	 * Return the messages of this request without its system prompt.
	 * @return the messages after a leading system message, or all of them
	 */
	public List<Message> conversation() {
		boolean hasSystem = !this.messages.isEmpty() && this.messages.get(0) instanceof SystemMessage;
		return hasSystem ? this.messages.subList(1, this.messages.size()) : this.messages;
	}

	/**
	 * Return this request with another system prompt, replacing a leading system message.
	 * @param prompt the system prompt; {@code null} or empty for none
	 * @return the request
	 */
	public ChatRequest withSystemPrompt(@Nullable String prompt) {
		List<Message> conversation = conversation();
		if (prompt == null || prompt.isEmpty()) {
			return (conversation.size() == this.messages.size()) ? this
					: new ChatRequest(conversation, this.tools, this.options);
		}
		List<Message> messages = new ArrayList<>(conversation.size() + 1);
		messages.add(new SystemMessage(prompt));
		messages.addAll(conversation);
		return new ChatRequest(messages, this.tools, this.options);
	}

}
