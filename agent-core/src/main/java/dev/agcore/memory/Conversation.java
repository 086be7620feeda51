package dev.agcore.memory;

import java.util.List;

import dev.agcore.message.Message;

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
		messages = List.copyOf(messages);
		if (version < 0) {
			throw new IllegalArgumentException("'version' must not be negative, was " + version);
		}
	}

}
