package dev.agcore.workflow;

import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * How an execution of a workflow ended.
 *
 * @param status completed or interrupted
 * @param value the output of a completed workflow, or the payload of an interrupted one
 * (JSON {@code null} for none)
 * @since 0.1.0
 */
public record WorkflowResult(Status status, JsonNode value) {

	public WorkflowResult {
		Objects.requireNonNull(status, "'status' must not be null");
		Objects.requireNonNull(value, "'value' must not be null");
	}

	public static WorkflowResult completed(JsonNode output) {
		return new WorkflowResult(Status.COMPLETED, output);
	}

	public static WorkflowResult interrupted(JsonNode payload) {
		return new WorkflowResult(Status.INTERRUPTED, payload);
	}

	public boolean isInterrupted() {
		return this.status == Status.INTERRUPTED;
	}

	/**
	 * How an execution ended.
	 */
	public enum Status {

		/** The workflow returned its output. */
		COMPLETED,

		/** The workflow waits for a human; resume it with an answer. */
		INTERRUPTED

	}

}
