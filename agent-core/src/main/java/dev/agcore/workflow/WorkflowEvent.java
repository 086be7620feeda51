package dev.agcore.workflow;

import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * An event of a workflow execution: {@value #TASK_STARTED}, {@value #TASK_COMPLETED}
 * ({@code {name, callId, cached}}), a custom event {@link WorkflowContext#emit emitted} by
 * the workflow, and last {@value #INTERRUPTED} ({@code {payload}}) or {@value #COMPLETED}
 * ({@code {output}}).
 *
 * @param type the type
 * @param data the data
 * @since 0.1.0
 */
public record WorkflowEvent(String type, JsonNode data) {

	/** A task's body starts (not for a task answered from the checkpoint). */
	public static final String TASK_STARTED = "task_started";

	/** A task returned, {@code cached} when from the checkpoint. */
	public static final String TASK_COMPLETED = "task_completed";

	/** The workflow waits for a human. */
	public static final String INTERRUPTED = "interrupted";

	/** The workflow returned. */
	public static final String COMPLETED = "completed";

	public WorkflowEvent {
		Objects.requireNonNull(type, "'type' must not be null");
		Objects.requireNonNull(data, "'data' must not be null");
	}

	/**
	 * Whether this is the last event of an execution.
	 * @return whether it is {@value #COMPLETED} or {@value #INTERRUPTED}
	 */
	public boolean isEnd() {
		return COMPLETED.equals(this.type) || INTERRUPTED.equals(this.type);
	}

}
