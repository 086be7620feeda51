package dev.agcore.plan;

/**
 * Where a {@link Step} is. Transitions are one way: {@code PENDING → RUNNING →
 * COMPLETED | FAILED | SKIPPED}, and {@code PENDING → SKIPPED}; a step is never retried
 * (a new plan is made instead, see replanning in {@link TaskAgent}).
 */
public enum StepStatus {

	/** Not started yet. */
	PENDING,

	/** Its turn is running. */
	RUNNING,

	/** Its turn completed with an answer. */
	COMPLETED,

	/** Its turn failed, or ended without an answer. */
	FAILED,

	/** It will not run: an earlier step failed, or the plan was replanned without it. */
	SKIPPED;

	/**
	 * Return whether the step has ended.
	 * @return {@code true} for {@code COMPLETED}, {@code FAILED} and {@code SKIPPED}
	 */
	public boolean isTerminal() {
		return this == COMPLETED || this == FAILED || this == SKIPPED;
	}

	/**
	 * Return whether a step in this status may move to the given one.
	 * @param next the status to move to
	 * @return whether the transition is allowed
	 */
	public boolean canMoveTo(StepStatus next) {
		return switch (this) {
			case PENDING -> next == RUNNING || next == SKIPPED;
			case RUNNING -> next.isTerminal();
			case COMPLETED, FAILED, SKIPPED -> false;
		};
	}

}
