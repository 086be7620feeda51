package dev.agcore.message;

import java.util.Objects;

/**
 * The result of one tool call, sent back to the model.
 *
 * @param toolCallId the id of the {@link ToolCall} this answers
 * @param toolName the name of the tool that was called
 * @param text the result (or a description of the error) as text
 * @param error whether the call failed; the text then says why
 */
public record ToolResultMessage(String toolCallId, String toolName, String text, boolean error) implements Message {

	public ToolResultMessage {
		Objects.requireNonNull(toolCallId, "'toolCallId' must not be null");
		Objects.requireNonNull(toolName, "'toolName' must not be null");
		Objects.requireNonNull(text, "'text' must not be null");
	}

	public static ToolResultMessage success(ToolCall call, String text) {
		return new ToolResultMessage(call.id(), call.name(), text, false);
	}

	public static ToolResultMessage failure(ToolCall call, String text) {
		return new ToolResultMessage(call.id(), call.name(), text, true);
	}

	@Override
	public Role role() {
		return Role.TOOL;
	}

}
