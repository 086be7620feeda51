package dev.agcore.plan;

import dev.agcore.AgentException;

/**
 * A plan ended without reaching its goal: a step failed (and replanning was off or used
 * up). The message lists the outcome of each step; {@link #plan()} holds the plan as it
 * ended. Over HTTP it is reported with the error code {@value #CODE}.
 */
public class PlanFailedException extends AgentException {

	/** The stable error code of this failure. */
	public static final String CODE = "plan_failed";

	private final transient Plan plan;

	public PlanFailedException(String message, Plan plan) {
		super(message);
		this.plan = plan;
	}

	/**
	 * Return the plan as it ended.
	 * @return the plan
	 */
	public Plan plan() {
		return this.plan;
	}

}
