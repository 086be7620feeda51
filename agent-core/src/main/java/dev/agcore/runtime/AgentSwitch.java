package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import org.jspecify.annotations.Nullable;

/**
 * Tells a model that the session's previous turn was another agent's (spec §5.11, as
 * OpenCode does): the history is kept as it is, and a synthetic
 * {@code <system-reminder>} is appended to the turn's user message as sent to the model.
 * The stored user message stays as the user wrote it, and the next turn of the same agent
 * finds its own answer last, so the reminder is sent on the turn of the switch only.
 */
final class AgentSwitch {

	private AgentSwitch() {
	}

	/**
	 * Return the agent that wrote the last assistant message of a history, if it is not
	 * the given one.
	 * @param history the stored conversation before the turn
	 * @param agent the agent of the turn
	 * @return the previous agent, or {@code null} when there was no switch (or the last
	 * answer's agent is not known: stored by an earlier release)
	 */
	static @Nullable String previousAgent(List<Message> history, String agent) {
		for (int i = history.size() - 1; i >= 0; i--) {
			if (history.get(i) instanceof AssistantMessage assistant) {
				String previous = assistant.agent();
				return (previous != null && !previous.equals(agent)) ? previous : null;
			}
		}
		return null;
	}

	/**
	 * Return the reminder text.
	 * @param previous the agent of the previous turn
	 * @param current the agent of this turn
	 * @return the text
	 */
	static String reminder(String previous, String current) {
		return "<system-reminder>Your operational mode has changed from " + previous + " to " + current
				+ ". The earlier assistant messages of this conversation were written by " + previous
				+ "; you are now " + current + ": follow your own instructions and use only your own tools."
				+ "</system-reminder>";
	}

	/**
	 * Return the messages of a request with the reminder appended to the turn's input.
	 * @param conversation the messages selected for the request
	 * @param input the turn's input, found by identity; nothing is changed when it is not
	 * a user message or not among the selected messages
	 * @param reminder the reminder text
	 * @return the messages, the given list when nothing changed
	 */
	static List<Message> remind(List<Message> conversation, Message input, String reminder) {
		if (!(input instanceof UserMessage user)) {
			return conversation;
		}
		for (int i = conversation.size() - 1; i >= 0; i--) {
			if (conversation.get(i) == input) {
				List<Message> reminded = new ArrayList<>(conversation);
				String text = user.text().isEmpty() ? reminder : user.text() + "\n\n" + reminder;
				reminded.set(i, new UserMessage(text, user.media(), user.name()));
				return reminded;
			}
		}
		return conversation;
	}

}
