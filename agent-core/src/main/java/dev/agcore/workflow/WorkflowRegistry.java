package dev.agcore.workflow;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The workflows of an application, by name.
 *
 * @since 0.1.0
 */
public final class WorkflowRegistry {

	private final Map<String, Workflow> workflows;

	/**
	 * Create a registry.
	 * @param workflows the workflows
	 * @throws IllegalArgumentException if two have the same name
	 */
	public WorkflowRegistry(Collection<Workflow> workflows) {
		Map<String, Workflow> byName = new LinkedHashMap<>();
		for (Workflow workflow : workflows) {
			if (byName.putIfAbsent(workflow.name(), workflow) != null) {
				throw new IllegalArgumentException("Two workflows are named '" + workflow.name()
						+ "': give each @Entrypoint or Workflow bean a unique name");
			}
		}
		this.workflows = byName;
	}

	/**
	 * Find a workflow.
	 * @param name its name
	 * @return the workflow, or empty
	 */
	public Optional<Workflow> find(String name) {
		return Optional.ofNullable(this.workflows.get(name));
	}

	/**
	 * Return a workflow.
	 * @param name its name
	 * @return the workflow
	 * @throws UnknownWorkflowException if there is none of that name
	 */
	public Workflow get(String name) {
		Workflow workflow = this.workflows.get(name);
		if (workflow == null) {
			throw new UnknownWorkflowException(name, names());
		}
		return workflow;
	}

	/**
	 * The names of the workflows, in registration order.
	 * @return the names
	 */
	public List<String> names() {
		return List.copyOf(this.workflows.keySet());
	}

}
