package dev.agcore.workflow;

import tools.jackson.databind.JsonNode;

/**
 * Thrown by {@link WorkflowContext#interrupt} to stop a workflow that waits for a human;
 * the engine catches it. Workflow code must let it pass (catch narrower exceptions than
 * {@code RuntimeException} around interrupts).
 *
 * @since 0.1.0
 */
public final class WorkflowInterrupt extends RuntimeException {

	private final transient JsonNode payload;

	private final int index;

	WorkflowInterrupt(JsonNode payload, int index) {
		super("The workflow waits for a human (interrupt #" + index + ")", null, false, false);
		this.payload = payload;
		this.index = index;
	}

	/**
	 * What the human is asked.
	 * @return the payload
	 */
	public JsonNode payload() {
		return this.payload;
	}

	/**
	 * The interrupt's number within the execution, from 0.
	 * @return the index
	 */
	public int index() {
		return this.index;
	}

}
