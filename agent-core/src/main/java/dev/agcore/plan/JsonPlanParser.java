package dev.agcore.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reference {@link PlanParser}: reads {@code {"steps":[{"description":"..."}, ...]}},
 * each step optionally with {@code "dependsOn": [indexes of earlier steps]}; other fields
 * are ignored. The JSON may sit in a fenced code block or among prose: the content of the
 * first fence is read, else the text from the first {@code {} to the last {@code }}.
 * Thread-safe.
 */
public final class JsonPlanParser implements PlanParser {

	/** The most steps a plan may have unless another bound is given. */
	public static final int DEFAULT_MAX_STEPS = 100;

	private static final Pattern FENCE = Pattern.compile("```[a-zA-Z0-9_-]*\\s*\\n?(.*?)```", Pattern.DOTALL);

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private final int maxSteps;

	/** Create a parser that accepts up to {@value #DEFAULT_MAX_STEPS} steps. */
	public JsonPlanParser() {
		this(DEFAULT_MAX_STEPS);
	}

	/**
	 * Create a parser.
	 * @param maxSteps the most steps a plan may have; a model's answer is untrusted input
	 */
	public JsonPlanParser(int maxSteps) {
		if (maxSteps < 1) {
			throw new IllegalArgumentException("'maxSteps' must be at least 1 (was " + maxSteps + ")");
		}
		this.maxSteps = maxSteps;
	}

	@Override
	public Plan parse(String raw, String goal) {
		JsonNode root;
		try {
			root = MAPPER.readTree(extractJson(raw));
		}
		catch (JacksonException ex) {
			throw new PlanParseException("Plan JSON could not be parsed: " + ex.getOriginalMessage(), ex);
		}
		JsonNode steps = (root != null) ? root.path("steps") : null;
		if (steps == null || !steps.isArray()) {
			throw new PlanParseException("Missing 'steps' array");
		}
		if (steps.isEmpty()) {
			throw new PlanParseException("A plan needs at least one step");
		}
		if (steps.size() > this.maxSteps) {
			throw new PlanParseException(
					"The plan has " + steps.size() + " steps; at most " + this.maxSteps + " are allowed");
		}
		List<Step> parsed = new ArrayList<>(steps.size());
		for (int i = 0; i < steps.size(); i++) {
			JsonNode description = steps.get(i).path("description");
			if (!description.isString() || description.asString().isBlank()) {
				throw new PlanParseException("Step " + i + " is missing the 'description' field");
			}
			parsed.add(Step.of(i, description.asString().strip(), dependsOn(i, steps.get(i).path("dependsOn"),
					steps.size())));
		}
		return new Plan(Plan.newId(), goal, parsed);
	}

	private static List<Integer> dependsOn(int index, JsonNode node, int size) {
		if (node.isMissingNode() || node.isNull()) {
			return List.of();
		}
		if (!node.isArray()) {
			throw new PlanParseException("Step " + index + ": 'dependsOn' must be an array of step indexes");
		}
		Set<Integer> dependencies = new LinkedHashSet<>();
		for (JsonNode element : node) {
			if (!element.isIntegralNumber() || !element.canConvertToInt()) {
				throw new PlanParseException("Step " + index + ": 'dependsOn' must be an array of step indexes");
			}
			int dependency = element.asInt();
			if (dependency == index) {
				throw new PlanParseException("Step " + index + " depends on itself");
			}
			if (dependency < 0 || dependency >= size) {
				throw new PlanParseException("Step " + index + " depends on the unknown step " + dependency);
			}
			if (dependency > index) {
				// only earlier steps: this is also what rules out cycles
				throw new PlanParseException("Step " + index + " depends on step " + dependency
						+ ", which comes after it; a step may depend on earlier steps only");
			}
			dependencies.add(dependency);
		}
		return List.copyOf(dependencies);
	}

	/**
	 * Return the JSON object in a model's answer: the content of the first fenced code
	 * block if there is one, else the text from the first brace to the last.
	 * @param answer the answer
	 * @return the JSON text, unchecked
	 */
	static String extractJson(String answer) {
		String text = answer.strip();
		Matcher fence = FENCE.matcher(text);
		if (fence.find()) {
			text = fence.group(1).strip();
		}
		int start = text.indexOf('{');
		int end = text.lastIndexOf('}');
		return (start >= 0 && end > start) ? text.substring(start, end + 1) : text;
	}

}
