package dev.agcore.middleware.builtin;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;

/**
 * Estimates how many tokens messages take in a prompt, to decide when to shrink the
 * context. Estimates need only be good enough to compare with a threshold; plug in a real
 * tokenizer for the model in use when thresholds are tight.
 */
@FunctionalInterface
public interface TokenEstimator {

	/**
	 * The default heuristic: about four characters per token (a fair average for English
	 * text with the common BPE tokenizers; fewer characters per token for code and most
	 * other languages, so it underestimates those), plus a few tokens of framing per
	 * message. Tool calls count their name and arguments.
	 */
	TokenEstimator CHARS_PER_TOKEN = (message) -> {
		long chars = message.text().length();
		if (message instanceof AssistantMessage assistant) {
			for (ToolCall call : assistant.toolCalls()) {
				chars += call.name().length() + call.arguments().length();
			}
		}
		return 4 + (chars + 3) / 4;
	};

	/**
	 * Estimate the tokens of one message.
	 * @param message the message
	 * @return the estimate, not negative
	 */
	long estimate(Message message);

	/**
	 * Estimate the tokens of several messages.
	 * @param messages the messages
	 * @return the sum of the estimates
	 */
	default long estimate(List<? extends Message> messages) {
		long total = 0;
		for (Message message : messages) {
			total += estimate(message);
		}
		return total;
	}

}
