package dev.agcore.plan;

import dev.agcore.AgentException;

/**
 * A model's answer is no valid plan. The message says what is wrong, in words safe to show
 * to a caller; over HTTP it is reported with the error code {@value #CODE}.
 */
public class PlanParseException extends AgentException {

	/** The stable error code of this failure. */
	public static final String CODE = "plan_parse_error";

	public PlanParseException(String message) {
		super(message);
	}

	public PlanParseException(String message, Throwable cause) {
		super(message, cause);
	}

}
