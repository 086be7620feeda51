package dev.agcore.runtime;

import dev.agcore.AgentException;

/**
 * The model's final answer did not match the requested structure (not JSON, not the
 * schema's shape, or breaking a Bean Validation constraint), even after it was asked once
 * more with the error. Nothing of the turn was stored. The HTTP endpoint answers it with
 * status 422 and the error {@value #CODE}.
 */
public class StructuredOutputException extends AgentException {

	/** The stable error code of this failure. */
	public static final String CODE = "structured_output_invalid";

	/** How much of the model's answer the message quotes. */
	static final int MAX_QUOTED_ANSWER = 500;

	private final String problem;

	/**
	 * Create an exception.
	 * @param agentName the agent
	 * @param problem what is wrong with the answer
	 * @param answer the model's answer, quoted truncated
	 */
	public StructuredOutputException(String agentName, String problem, String answer) {
		super("Agent '" + agentName + "' gave no valid structured answer after one retry: " + problem
				+ "; answer was: " + quote(answer));
		this.problem = problem;
	}

	static String quote(String answer) {
		return (answer.length() <= MAX_QUOTED_ANSWER) ? answer
				: answer.substring(0, MAX_QUOTED_ANSWER) + "... (" + answer.length() + " characters)";
	}

	/**
	 * Return the stable error code.
	 * @return {@value #CODE}
	 */
	public String code() {
		return CODE;
	}

	/**
	 * Return what is wrong with the last answer.
	 * @return the problem
	 */
	public String problem() {
		return this.problem;
	}

}
