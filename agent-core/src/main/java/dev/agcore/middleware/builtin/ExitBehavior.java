package dev.agcore.middleware.builtin;

/**
 * What a limit middleware does when a limit is reached.
 *
 * @see ModelCallLimitMiddleware
 * @see ToolCallLimitMiddleware
 */
public enum ExitBehavior {

	/**
	 * End the turn normally, with a final answer that names the limit. The turn completes
	 * and is stored; the conversation stays well-formed (every tool call has a result).
	 */
	END,

	/**
	 * Answer the model with an error tool result instead of running the tool, and let it
	 * go on (it usually answers with what it has). Only meaningful for tool calls: a
	 * model-call limit cannot answer the model, so it behaves as {@link #END}.
	 */
	ERROR_TO_MODEL,

	/**
	 * Fail the turn with a {@link LimitExceededException}; nothing of the turn is stored
	 * and a stream ends with an error event.
	 */
	FAIL

}
