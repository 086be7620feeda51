package dev.agcore.plan.task;

import java.util.List;
import java.util.stream.Collectors;

import dev.agcore.plan.Plan;
import dev.agcore.plan.Step;
import dev.agcore.plan.StepStatus;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The texts a {@link TaskAgent} sends: the planner's instructions and the plan's JSON
 * schema, the replanning request, and the user message of each step's turn.
 */
final class PlanPrompts {

	/** How much of an earlier step's result a prompt quotes. */
	static final int MAX_QUOTED_RESULT = 2000;

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private PlanPrompts() {
	}

	/**
	 * The schema of a plan, strict-mode compatible (every property required, no others).
	 */
	static ObjectNode schema(int maxSteps) {
		ObjectNode step = MAPPER.createObjectNode().put("type", "object");
		ObjectNode stepProperties = step.putObject("properties");
		stepProperties.putObject("description").put("type", "string").put("description",
				"What to do, as a self-contained instruction");
		ObjectNode dependsOn = stepProperties.putObject("dependsOn").put("type", "array").put("description",
				"Indexes (from 0) of earlier steps whose results this step needs; empty for none");
		dependsOn.putObject("items").put("type", "integer");
		step.putArray("required").add("description").add("dependsOn");
		step.put("additionalProperties", false);
		ObjectNode schema = MAPPER.createObjectNode().put("type", "object");
		ObjectNode steps = schema.putObject("properties").putObject("steps").put("type", "array");
		steps.put("minItems", 1).put("maxItems", maxSteps);
		steps.set("items", step);
		ArrayNode required = schema.putArray("required");
		required.add("steps");
		schema.put("additionalProperties", false);
		return schema;
	}

	/** The planner's system prompt. */
	static String system(int maxSteps, List<ToolSpec> tools, boolean schemaInPrompt, ObjectNode schema) {
		StringBuilder prompt = new StringBuilder();
		prompt.append("You plan work for an assistant. Break the user's goal into at most ")
			.append(maxSteps)
			.append(" steps. Each step is one self-contained instruction the assistant carries out in one turn. ")
			.append("Steps run in order and see the results of earlier steps. A step may list in dependsOn the ")
			.append("indexes (from 0) of earlier steps it needs; steps whose dependencies are done may run at ")
			.append("the same time. The last step must produce the final answer for the user.");
		if (!tools.isEmpty()) {
			prompt.append("\n\nThe assistant has these tools:\n")
				.append(tools.stream()
					.map((tool) -> "- " + tool.name() + ": " + tool.description())
					.collect(Collectors.joining("\n")));
		}
		prompt.append("\n\nAnswer only with a JSON object such as ")
			.append("{\"steps\":[{\"description\":\"...\",\"dependsOn\":[]}]}");
		if (schemaInPrompt) {
			prompt.append(", matching this schema, with no other text: ").append(schema);
		}
		return prompt.toString();
	}

	/** The user message that asks for a new plan of the remaining work after a failure. */
	static String replan(Plan plan, int maxSteps) {
		StringBuilder prompt = new StringBuilder("Goal: ").append(plan.goal())
			.append("\n\nA plan for this goal ran into a failure. What happened so far:\n");
		for (Step step : plan.steps()) {
			prompt.append("- Step ").append(step.index()).append(" (").append(step.description()).append("): ");
			switch (step.status()) {
				case COMPLETED -> prompt.append("completed. Result: ").append(quote(step.result()));
				case FAILED -> prompt.append("FAILED: ").append(step.error());
				case SKIPPED -> prompt.append("skipped");
				default -> prompt.append("not started");
			}
			prompt.append('\n');
		}
		prompt.append("\nThe completed steps' results are kept. Plan only the remaining work, in at most ")
			.append(maxSteps)
			.append(" new steps, avoiding what failed. Index your new steps from 0; dependsOn names your new ")
			.append("steps only.");
		return prompt.toString();
	}

	/** The user message of a step's turn: a short header, results it depends on, then the step. */
	static String step(Plan plan, Step step) {
		StringBuilder prompt = new StringBuilder("You are carrying out a plan for the goal: ").append(plan.goal())
			.append("\nThis is step ")
			.append(step.index() + 1)
			.append(" of ")
			.append(plan.steps().size())
			.append('.');
		if (plan.isGraph() && !step.dependsOn().isEmpty()) {
			prompt.append("\n\nResults of the steps it builds on:");
			for (int dependency : step.dependsOn()) {
				Step earlier = plan.step(dependency);
				prompt.append("\n[Step ").append(dependency + 1).append(": ").append(earlier.description())
					.append("]\n").append(quote(earlier.result()));
			}
		}
		prompt.append("\n\nStep ").append(step.index() + 1).append(": ").append(step.description());
		return prompt.toString();
	}

	/** A one-line account of each step, for a failed plan's message. */
	static String summary(Plan plan) {
		Step failed = plan.steps().stream().filter((step) -> step.status() == StepStatus.FAILED).reduce((a, b) -> b)
			.orElse(null);
		StringBuilder text = new StringBuilder("The plan did not reach its goal");
		if (failed != null) {
			text.append(": step ").append(failed.index()).append(" (").append(failed.description())
				.append(") failed: ").append(failed.error());
		}
		text.append(". Steps: ").append(plan.steps().stream()
			.map((step) -> step.index() + " " + step.status().name().toLowerCase(java.util.Locale.ROOT))
			.collect(Collectors.joining(", ")));
		return text.toString();
	}

	private static String quote(@Nullable String text) {
		String value = (text != null) ? text : "";
		return (value.length() <= MAX_QUOTED_RESULT) ? value
				: value.substring(0, MAX_QUOTED_RESULT) + "... (" + value.length() + " characters)";
	}

}
