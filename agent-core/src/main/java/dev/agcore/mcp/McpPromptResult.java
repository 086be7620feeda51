package dev.agcore.mcp;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * A prompt an MCP server filled in ({@code prompts/get}): its messages as text. Non-text
 * content is turned into text as in tool results: an embedded text resource becomes its
 * text under a line naming it, an image or audio clip a short note.
 *
 * @param description what the prompt is for, or {@code null}
 * @param messages its messages in order
 * @since 0.1.0
 */
public record McpPromptResult(@Nullable String description, List<Message> messages) {

	public McpPromptResult {
		messages = List.copyOf(messages);
	}

	/**
	 * Return the text of all messages, separated by blank lines, whatever their role:
	 * what an agent uses when the prompt is its system prompt.
	 * @return the text
	 */
	public String text() {
		return this.messages.stream().map(Message::text).collect(Collectors.joining("\n\n"));
	}

	/**
	 * One message of a prompt.
	 *
	 * @param role {@code user} or {@code assistant}
	 * @param text its content as text
	 */
	public record Message(String role, String text) {

		public Message {
			Objects.requireNonNull(role, "'role' must not be null");
			Objects.requireNonNull(text, "'text' must not be null");
		}

	}

}
