package dev.agcore.workflow;

import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * A named, durable workflow: a function that calls checkpointed
 * {@link WorkflowContext#task tasks}, executed by a {@link WorkflowEngine}.
 *
 * <pre class="code">
 * Workflow.of("review", (ctx, input) -&gt; {
 * 	String draft = ctx.task("draft", String.class, () -&gt; writer.draft(input.path("topic").asString()));
 * 	JsonNode verdict = ctx.interrupt(Map.of("draft", draft));
 * 	return verdict.path("approved").asBoolean() ? draft : null;
 * });
 * </pre>
 *
 * @param name the workflow's name, unique in a {@link WorkflowRegistry}
 * @param function its body
 * @param inputCheck checks an input before a run of the workflow is queued, so that input
 * the workflow cannot take is refused to the caller rather than failing the run later
 * @since 0.1.0
 */
public record Workflow(String name, WorkflowFunction function, InputCheck inputCheck) {

	/** The longest workflow name accepted, as for a run's target. */
	public static final int MAX_NAME_LENGTH = 200;

	public Workflow {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(function, "'function' must not be null");
		Objects.requireNonNull(inputCheck, "'inputCheck' must not be null");
		if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
			throw new IllegalArgumentException(
					"A workflow name must not be blank and have at most " + MAX_NAME_LENGTH + " characters: '" + name + "'");
		}
	}

	/**
	 * Create a workflow.
	 * @param name its name
	 * @param function its body
	 * @return the workflow
	 */
	public static Workflow of(String name, WorkflowFunction function) {
		return new Workflow(name, function, InputCheck.NONE);
	}

	/**
	 * Return this workflow with a check of its input.
	 * @param inputCheck the check
	 * @return the workflow
	 */
	public Workflow withInputCheck(InputCheck inputCheck) {
		return new Workflow(this.name, this.function, inputCheck);
	}

	/**
	 * Checks a workflow's input when a run is submitted.
	 */
	@FunctionalInterface
	public interface InputCheck {

		/** Accepts any input. */
		InputCheck NONE = (input) -> {
		};

		/**
		 * Check an input.
		 * @param input the input
		 * @throws WorkflowInputException when the workflow cannot take it
		 */
		void check(JsonNode input);

	}

}
