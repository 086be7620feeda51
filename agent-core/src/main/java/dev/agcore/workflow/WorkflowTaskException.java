package dev.agcore.workflow;

/**
 * A task's body threw a checked exception, its cause. The task was not checkpointed.
 *
 * @since 0.1.0
 */
public class WorkflowTaskException extends RuntimeException {

	public WorkflowTaskException(String callId, Throwable cause) {
		super("The workflow task '" + callId + "' failed: " + cause.getMessage(), cause);
	}

}
