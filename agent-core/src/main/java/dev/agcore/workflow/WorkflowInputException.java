package dev.agcore.workflow;

import dev.agcore.AgentException;

/**
 * The input of a workflow does not fit what its entrypoint takes (a JSON number where it
 * converts the input to a record, say). Reported to the caller with the code
 * {@value #CODE}: when a run is submitted (HTTP 400), or as the error of a run whose
 * input was checked by nothing earlier.
 *
 * @since 0.1.0
 */
public class WorkflowInputException extends AgentException {

	/** The error code of a run failed by its input. */
	public static final String CODE = "invalid_input";

	/** The longest part of a converter's message kept, as input is echoed in it. */
	private static final int MAX_DETAIL_LENGTH = 300;

	public WorkflowInputException(String message) {
		super(message);
	}

	/**
	 * The input of a workflow could not be converted.
	 * @param workflow the workflow
	 * @param expected what its entrypoint takes, e.g. a record's simple name
	 * @param detail the converter's message
	 * @return the exception
	 */
	public static WorkflowInputException conversion(String workflow, String expected, String detail) {
		String bounded = (detail.length() > MAX_DETAIL_LENGTH) ? detail.substring(0, MAX_DETAIL_LENGTH) + "…" : detail;
		return new WorkflowInputException(
				"The input of workflow '" + workflow + "' does not fit " + expected + ": " + bounded);
	}

	@Override
	public String errorCode() {
		return CODE;
	}

}
