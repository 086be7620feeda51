package dev.agcore.plan;

/**
 * Turns a model's answer into a {@link Plan}. {@link JsonPlanParser} is the reference
 * implementation; an application may provide its own (in Spring Boot, a bean of this type
 * replaces it).
 */
@FunctionalInterface
public interface PlanParser {

	/**
	 * Parse a plan.
	 * @param raw the model's answer
	 * @param goal what the plan is for, copied into the plan
	 * @return the plan, every step pending
	 * @throws PlanParseException if the answer is no valid plan
	 */
	Plan parse(String raw, String goal);

}
