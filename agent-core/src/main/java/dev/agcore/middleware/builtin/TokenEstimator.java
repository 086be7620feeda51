package dev.agcore.middleware.builtin;

import java.util.List;

import dev.agcore.memory.window.TokenCounter;
import dev.agcore.message.Message;

/**
 * Estimates how many tokens messages take in a prompt, to decide when to shrink the
 * context. Estimates need only be good enough to compare with a threshold; plug in a real
 * tokenizer for the model in use when thresholds are tight. Every estimator is a
 * {@link TokenCounter}, and a counter becomes an estimator with {@code counter::count}.
 */
@FunctionalInterface
public interface TokenEstimator extends TokenCounter {

	/**
	 * The default heuristic, {@link TokenCounter#ESTIMATE}: about four characters per
	 * token (a fair average for English text with the common BPE tokenizers; fewer
	 * characters per token for code and most other languages, so it underestimates those),
	 * plus a few tokens of framing per message. Tool calls count their name and arguments.
	 */
	TokenEstimator CHARS_PER_TOKEN = TokenCounter.ESTIMATE::count;

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
		return count(messages);
	}

	@Override
	default long count(Message message) {
		return estimate(message);
	}

}
