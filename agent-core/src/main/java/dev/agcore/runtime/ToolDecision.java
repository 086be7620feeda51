package dev.agcore.runtime;

import java.util.Objects;

/**
 * A human's decision on a tool call that waited for approval.
 */
public sealed interface ToolDecision {

	/** Run the call as the model proposed it. */
	static ToolDecision approve() {
		return Approve.INSTANCE;
	}

	/**
	 * Run the call with other arguments.
	 * @param arguments the arguments to use, as a JSON object text
	 * @return the decision
	 */
	static ToolDecision edit(String arguments) {
		return new Edit(arguments);
	}

	/**
	 * Do not run the call; the model is told it was rejected and why.
	 * @param reason the reason, shown to the model
	 * @return the decision
	 */
	static ToolDecision reject(String reason) {
		return new Reject(reason);
	}

	/** Run as proposed. */
	record Approve() implements ToolDecision {

		static final Approve INSTANCE = new Approve();

	}

	/**
	 * Run with other arguments.
	 *
	 * @param arguments the arguments, a JSON object text
	 */
	record Edit(String arguments) implements ToolDecision {

		public Edit {
			Objects.requireNonNull(arguments, "'arguments' must not be null");
		}

	}

	/**
	 * Do not run.
	 *
	 * @param reason why, shown to the model
	 */
	record Reject(String reason) implements ToolDecision {

		public Reject {
			reason = (reason == null || reason.isBlank()) ? "no reason given" : reason;
		}

	}

}
