package dev.agcore;

import org.jspecify.annotations.Nullable;

/**
 * Root of every exception the library throws. Unchecked, so reactive pipelines and
 * lambdas can carry it without wrapping.
 */
public class AgentException extends RuntimeException {

	public AgentException(String message) {
		super(message);
	}

	public AgentException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * A stable code for whoever asked (an HTTP caller, an MCP client, a background run's
	 * error), when this exception's message is meant for them. Subclasses outside the
	 * runtime's own failures override it, so that a new kind of failure is reported with
	 * its code without the runtime knowing it.
	 * @return the code, such as {@code invalid_input}, or {@code null} for a failure whose
	 * details belong in the server log only
	 */
	public @Nullable String errorCode() {
		return null;
	}

}
