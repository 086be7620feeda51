package dev.agcore.memory.window;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;

/**
 * Counts the tokens messages take in a model request, for token windows and compaction
 * thresholds. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface TokenCounter {

	/**
	 * The estimate for models without a known tokenizer: about four characters per token
	 * (a fair average for English with the common BPE tokenizers; code and most other
	 * languages take more tokens, so it underestimates those), plus four tokens of framing
	 * per message. Tool calls count their name and arguments.
	 */
	TokenCounter ESTIMATE = (message) -> {
		long chars = message.text().length();
		if (message instanceof AssistantMessage assistant) {
			for (ToolCall call : assistant.toolCalls()) {
				chars += call.name().length() + call.arguments().length();
			}
		}
		return 4 + (chars + 3) / 4;
	};

	/**
	 * Count the tokens of one message, its framing included.
	 * @param message the message
	 * @return the count, not negative
	 */
	long count(Message message);

	/**
	 * Count the tokens of several messages.
	 * @param messages the messages
	 * @return the sum of the counts
	 */
	default long count(List<? extends Message> messages) {
		long total = 0;
		for (Message message : messages) {
			total += count(message);
		}
		return total;
	}

	/**
	 * Return the counter for a model: its exact tokenizer when jtokkit is on the class
	 * path and the model is an OpenAI-family model it knows ({@link JtokkitTokenCounter}),
	 * otherwise {@link #ESTIMATE}.
	 * @param modelName the model, such as "gpt-4o-mini"
	 * @return the counter
	 */
	static TokenCounter forModel(String modelName) {
		if (JtokkitPresence.PRESENT) {
			TokenCounter exact = JtokkitTokenCounter.forModel(modelName);
			if (exact != null) {
				return exact;
			}
		}
		return ESTIMATE;
	}

}
