package dev.agcore;

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

}
