package dev.agcore.memory.window;

import java.util.List;
import java.util.Objects;

import dev.agcore.message.Message;

/**
 * Chooses what the model sees of a conversation: the agent applies it to every model
 * request, to the conversation after the system prompt. The store keeps every message;
 * the window only shapes the request.
 * <p>
 * Every window keeps the current turn whole (the user's message and the model's calls and
 * results since), and cuts the history before it so that no tool result is sent without
 * the assistant message that called it, nor an assistant message that calls tools without
 * all its results: a cut that would fall on a tool result moves forward past it.
 * <pre>
 * Agent.builder().contextWindow(ContextWindow.lastMessages(40))
 * Agent.builder().contextWindow(ContextWindow.lastTokens(30_000, TokenCounter.forModel("gpt-4o")))
 * </pre>
 */
@FunctionalInterface
public interface ContextWindow {

	/**
	 * Select the messages to send.
	 * @param conversation the conversation without the system prompt: the stored history,
	 * then the current turn; not to be modified
	 * @param turnStart the index of the current turn's first message (the user's message);
	 * it and every message after it must be kept
	 * @return the messages to send: a tail of the conversation that starts at or before
	 * {@code turnStart}
	 */
	List<Message> select(List<Message> conversation, int turnStart);

	/**
	 * The whole conversation, the default.
	 * @return the window
	 */
	static ContextWindow full() {
		return Windows.FULL;
	}

	/**
	 * The last messages: at most {@code maxMessages}, fewer where the cut moves forward
	 * past tool results, more only when the current turn alone is longer.
	 * @param maxMessages at least 1
	 * @return the window
	 */
	static ContextWindow lastMessages(int maxMessages) {
		if (maxMessages < 1) {
			throw new IllegalArgumentException("'maxMessages' must be at least 1, was " + maxMessages);
		}
		return new Windows.LastMessages(maxMessages);
	}

	/**
	 * The last messages that fit in {@code maxTokens} as the counter counts them (system
	 * prompt and tool definitions not included: leave room for them), more only when the
	 * current turn alone is larger.
	 * @param maxTokens at least 1
	 * @param counter how to count, e.g. {@link TokenCounter#forModel(String)}
	 * @return the window
	 */
	static ContextWindow lastTokens(long maxTokens, TokenCounter counter) {
		if (maxTokens < 1) {
			throw new IllegalArgumentException("'maxTokens' must be at least 1, was " + maxTokens);
		}
		return new Windows.LastTokens(maxTokens, Objects.requireNonNull(counter, "'counter' must not be null"));
	}

}
