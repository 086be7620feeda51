package dev.agcore.memory;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;

/**
 * The stored conversation of a session, with its version: every change to the
 * conversation (an append, a replacement, a paused or completed turn) increases the
 * version by one, so a writer that passes the version it read fails with a
 * {@link ConversationConflictException} instead of losing a concurrent turn.
 *
 * @param messages the messages, oldest first
 * @param version the version; {@code 0} for a session with nothing stored
 * @since 0.1.0
 */
public record Conversation(List<Message> messages, long version) {

	/** The conversation of an unknown session. */
	public static final Conversation EMPTY = new Conversation(List.of(), 0);

	public Conversation {
		// a MessageLog is immutable already: copying it would cost a turn the whole history
		messages = (messages instanceof MessageLog) ? messages : List.copyOf(messages);
		if (version < 0) {
			throw new IllegalArgumentException("'version' must not be negative, was " + version);
		}
	}

	/**
	 * Return the newest messages, at most {@code maxMessages}, never starting with a tool
	 * result whose call was left out.
	 * @param maxMessages the most messages kept
	 * @return the conversation with those messages and the same version
	 */
	public Conversation newest(int maxMessages) {
		if (this.messages.size() <= maxMessages) {
			return this;
		}
		int start = this.messages.size() - maxMessages;
		while (start < this.messages.size() && this.messages.get(start) instanceof ToolResultMessage) {
			start++;
		}
		return new Conversation(this.messages.subList(start, this.messages.size()), this.version);
	}

}
