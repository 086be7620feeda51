package dev.agcore.workflow;

import java.util.List;

/**
 * No workflow has the given name.
 *
 * @since 0.1.0
 */
public class UnknownWorkflowException extends IllegalArgumentException {

	public UnknownWorkflowException(String name, List<String> known) {
		super("No workflow is named '" + name + "'" + (known.isEmpty() ? " (none is registered)"
				: " (registered: " + String.join(", ", known) + ")"));
	}

}
