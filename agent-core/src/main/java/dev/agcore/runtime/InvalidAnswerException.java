package dev.agcore.runtime;

import dev.agcore.AgentException;

/**
 * A model's answer could not be read as the type asked for: it holds no JSON of the
 * type's shape, or the value breaks a Bean Validation constraint. Thrown by
 * {@link StructuredAnswers#read}, which asks nothing of the model again; an agent's own
 * check asks once more and then fails with a {@link StructuredOutputException}.
 *
 * @since 0.1.0
 */
public class InvalidAnswerException extends AgentException {

	private final String problem;

	/**
	 * Create an exception.
	 * @param typeName the simple name of the type asked for
	 * @param problem what is wrong with the answer
	 * @param answer the model's answer, quoted truncated
	 */
	public InvalidAnswerException(String typeName, String problem, String answer) {
		super("The answer is no valid " + typeName + ": " + problem + "; answer was: "
				+ StructuredOutputException.quote(answer));
		this.problem = problem;
	}

	/**
	 * Return what is wrong with the answer, without the answer.
	 * @return the problem, e.g. {@code 'celsius' must be less than or equal to 60}
	 */
	public String problem() {
		return this.problem;
	}

}
