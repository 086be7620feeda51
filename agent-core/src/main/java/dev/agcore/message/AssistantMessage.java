package dev.agcore.message;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A message produced by the model: text, tool calls, or both.
 *
 * @param text the text, empty when the model only called tools
 * @param toolCalls the tool calls the model asked for, in order
 */
public record AssistantMessage(String text, List<ToolCall> toolCalls) implements Message {

	public AssistantMessage(@Nullable String text, List<ToolCall> toolCalls) {
		this.text = (text != null) ? text : "";
		this.toolCalls = List.copyOf(toolCalls);
	}

	public static AssistantMessage of(String text) {
		return new AssistantMessage(text, List.of());
	}

	public static AssistantMessage of(List<ToolCall> toolCalls) {
		return new AssistantMessage("", toolCalls);
	}

	public boolean hasToolCalls() {
		return !this.toolCalls.isEmpty();
	}

	@Override
	public Role role() {
		return Role.ASSISTANT;
	}

}
