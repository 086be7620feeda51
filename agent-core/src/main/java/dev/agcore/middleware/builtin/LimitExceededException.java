package dev.agcore.middleware.builtin;

import dev.agcore.middleware.MiddlewareException;

/**
 * A limit middleware stopped the turn because a limit was reached and its
 * {@link ExitBehavior} is {@link ExitBehavior#FAIL}.
 */
public class LimitExceededException extends MiddlewareException {

	private final String limit;

	private final int max;

	public LimitExceededException(String limit, int max, String message) {
		super(message);
		this.limit = limit;
		this.max = max;
	}

	/**
	 * Return which limit was reached, as in the {@code limit} tag of
	 * {@code agent.limit.exceeded}: {@code model_calls_per_turn},
	 * {@code model_calls_per_session}, {@code tool_calls_per_turn} or
	 * {@code tool_calls_per_tool}.
	 * @return the limit name
	 */
	public String limit() {
		return this.limit;
	}

	/**
	 * Return the value of the limit.
	 * @return the maximum number of calls allowed
	 */
	public int max() {
		return this.max;
	}

}
