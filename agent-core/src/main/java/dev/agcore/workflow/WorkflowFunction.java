package dev.agcore.workflow;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The body of a {@link Workflow}: blocking user code, run on a thread that may block. It
 * runs again from the start each time the workflow is resumed, so apart from its
 * {@link WorkflowContext#task tasks} it must be deterministic.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface WorkflowFunction {

	/**
	 * Run the workflow.
	 * @param context the execution's tasks, interrupts and events
	 * @param input the workflow's input
	 * @return the output, any value that serialises to JSON, or {@code null}
	 * @throws Exception when the workflow fails
	 */
	@Nullable Object apply(WorkflowContext context, JsonNode input) throws Exception;

}
