package dev.agcore.memory.window;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;

/**
 * The built-in {@link ContextWindow}s and the cut they share.
 */
final class Windows {

	static final ContextWindow FULL = new ContextWindow() {

		@Override
		public List<Message> select(List<Message> conversation, int turnStart) {
			return conversation;
		}

		@Override
		public String toString() {
			return "ContextWindow.full()";
		}

	};

	private Windows() {
	}

	/**
	 * The conversation from {@code start} on, after moving the start forward past tool
	 * results whose call it would cut (never past the turn's start).
	 */
	static List<Message> from(List<Message> conversation, int start, int turnStart) {
		int cut = Math.max(0, start);
		while (cut < turnStart && conversation.get(cut) instanceof ToolResultMessage) {
			cut++;
		}
		return (cut == 0) ? conversation : conversation.subList(cut, conversation.size());
	}

	static int clamp(int turnStart, List<Message> conversation) {
		return Math.max(0, Math.min(turnStart, conversation.size()));
	}

	record LastMessages(int maxMessages) implements ContextWindow {

		@Override
		public List<Message> select(List<Message> conversation, int turnStart) {
			int turn = clamp(turnStart, conversation);
			return from(conversation, Math.min(conversation.size() - this.maxMessages, turn), turn);
		}

		@Override
		public String toString() {
			return "ContextWindow.lastMessages(" + this.maxMessages + ")";
		}

	}

	record LastTokens(long maxTokens, TokenCounter counter) implements ContextWindow {

		@Override
		public List<Message> select(List<Message> conversation, int turnStart) {
			int turn = clamp(turnStart, conversation);
			long budget = this.maxTokens - this.counter.count(conversation.subList(turn, conversation.size()));
			int start = turn;
			while (start > 0) {
				long tokens = this.counter.count(conversation.get(start - 1));
				if (tokens > budget) {
					break;
				}
				budget -= tokens;
				start--;
			}
			return from(conversation, start, turn);
		}

		@Override
		public String toString() {
			return "ContextWindow.lastTokens(" + this.maxTokens + ", " + this.counter + ")";
		}

	}

}
