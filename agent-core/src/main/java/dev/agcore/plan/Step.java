package dev.agcore.plan;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One step of a {@link Plan}: its description is sent to the agent as the user message of
 * the step's turn. Immutable; the transition methods return a new step and throw
 * {@link IllegalStateException} for a transition {@link StepStatus} does not allow.
 *
 * @param index the step's position in the plan, from 0
 * @param description what to do
 * @param dependsOn the indexes of earlier steps whose results this step needs; empty for
 * none. A step with dependencies waits for them (and may run beside other steps whose
 * dependencies are met); a step without runs after the step before it
 * @param status where the step is
 * @param result the answer of the step's turn once {@link StepStatus#COMPLETED}, else
 * {@code null}
 * @param error why the step failed once {@link StepStatus#FAILED} (or was skipped), else
 * {@code null}
 */
public record Step(int index, String description, List<Integer> dependsOn, StepStatus status, @Nullable String result,
		@Nullable String error) {

	public Step {
		if (index < 0) {
			throw new IllegalArgumentException("'index' must not be negative (was " + index + ")");
		}
		Objects.requireNonNull(description, "'description' must not be null");
		dependsOn = List.copyOf(dependsOn);
		Objects.requireNonNull(status, "'status' must not be null");
	}

	/**
	 * Create a pending step without dependencies.
	 * @param index the index, from 0
	 * @param description what to do
	 * @return the step
	 */
	public static Step of(int index, String description) {
		return of(index, description, List.of());
	}

	/**
	 * Create a pending step.
	 * @param index the index, from 0
	 * @param description what to do
	 * @param dependsOn the indexes of the earlier steps it needs
	 * @return the step
	 */
	public static Step of(int index, String description, List<Integer> dependsOn) {
		return new Step(index, description, dependsOn, StepStatus.PENDING, null, null);
	}

	/**
	 * Return this step running.
	 * @return the step
	 * @throws IllegalStateException if the step is not pending
	 */
	public Step start() {
		return moveTo(StepStatus.RUNNING, null, null);
	}

	/**
	 * Return this step completed.
	 * @param result the answer of its turn
	 * @return the step
	 * @throws IllegalStateException if the step is not running
	 */
	public Step complete(String result) {
		return moveTo(StepStatus.COMPLETED, Objects.requireNonNull(result, "'result' must not be null"), null);
	}

	/**
	 * Return this step failed.
	 * @param error why
	 * @return the step
	 * @throws IllegalStateException if the step is not running
	 */
	public Step fail(String error) {
		return moveTo(StepStatus.FAILED, null, Objects.requireNonNull(error, "'error' must not be null"));
	}

	/**
	 * Return this step skipped.
	 * @param reason why it will not run
	 * @return the step
	 * @throws IllegalStateException if the step has ended already
	 */
	public Step skip(String reason) {
		return moveTo(StepStatus.SKIPPED, null, Objects.requireNonNull(reason, "'reason' must not be null"));
	}

	/**
	 * Return this step with another index, for a step moved in a replanned plan.
	 * @param index the new index
	 * @param dependsOn its dependencies, by new index
	 * @return the step
	 */
	Step renumbered(int index, List<Integer> dependsOn) {
		return new Step(index, this.description, dependsOn, this.status, this.result, this.error);
	}

	private Step moveTo(StepStatus next, @Nullable String result, @Nullable String error) {
		if (!this.status.canMoveTo(next)) {
			throw new IllegalStateException(
					"Step " + this.index + " cannot move from " + this.status + " to " + next + ": steps move one way");
		}
		return new Step(this.index, this.description, this.dependsOn, next, result, error);
	}

}
