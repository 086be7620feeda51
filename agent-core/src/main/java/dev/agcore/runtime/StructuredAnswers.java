package dev.agcore.runtime;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.agcore.tool.binding.ArgumentViolation;
import dev.agcore.tool.binding.ToolBinding;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a model's answer as a Java type, the way agents check their structured answers
 * ({@link Agent#invokeStructured}): the JSON is taken out of code fences and prose around
 * it, mapped to the type with the mapper typed tools use, and validated with Bean
 * Validation when it is on the class path. Also gives the type's JSON schema and the
 * instructions that ask a model for it, for prompts of one's own.
 *
 * @since 0.1.0
 */
public final class StructuredAnswers {

	private static final Pattern FENCE = Pattern.compile("```[a-zA-Z]*\\s*\\n?(.*?)```", Pattern.DOTALL);

	private static final Map<Class<?>, ObjectNode> SCHEMAS = new ConcurrentHashMap<>();

	private StructuredAnswers() {
	}

	/**
	 * Read an answer as a Java type.
	 * @param <T> the type
	 * @param answer the model's text, possibly with a fenced code block or prose around
	 * the JSON
	 * @param type the type
	 * @return the value, mapped and validated
	 * @throws InvalidAnswerException if the answer holds no JSON of the type, or the value
	 * breaks a validation constraint
	 */
	public static <T> T read(String answer, Class<T> type) {
		Objects.requireNonNull(answer, "'answer' must not be null");
		Objects.requireNonNull(type, "'type' must not be null");
		try {
			return convert(extractJson(answer), type);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidAnswerException(type.getSimpleName(), ex.getMessage(), answer);
		}
	}

	/**
	 * Return the JSON schema of a type, as the generator of typed tools makes it.
	 * @param type the type
	 * @return a copy of the schema, free to change
	 */
	public static ObjectNode schema(Class<?> type) {
		Objects.requireNonNull(type, "'type' must not be null");
		return SCHEMAS.computeIfAbsent(type, (key) -> ToolBinding.defaults().schemaGenerator().schemaFor(key))
			.deepCopy();
	}

	/**
	 * Return the instructions that ask a model for a JSON value of a type, the ones agents
	 * add to the system prompt of a model without native structured output.
	 * @param type the type
	 * @return the instructions, with the type's schema
	 */
	public static String instructions(Class<?> type) {
		return instructions(schema(type));
	}

	/**
	 * Return the JSON in a model's answer: the content of a fenced code block if there is
	 * one, else the text from the first brace or bracket to the last, else the answer
	 * stripped.
	 * @param answer the model's text
	 * @return the JSON text, unchecked
	 */
	public static String extractJson(String answer) {
		String text = answer.strip();
		Matcher fence = FENCE.matcher(text);
		if (fence.find()) {
			text = fence.group(1).strip();
		}
		if (text.startsWith("{") || text.startsWith("[")) {
			return text;
		}
		int brace = text.indexOf('{');
		int bracket = text.indexOf('[');
		int start = (brace < 0) ? bracket : (bracket < 0) ? brace : Math.min(brace, bracket);
		int end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
		if (start >= 0 && end > start) {
			return text.substring(start, end + 1);
		}
		return text;
	}

	static String instructions(ObjectNode schema) {
		return "Answer only with a JSON value matching this schema, with no other text: " + schema;
	}

	/**
	 * Map JSON text to a type and validate it.
	 * @throws IllegalArgumentException with what is wrong, in words the model can act on
	 */
	static <T> T convert(String json, Class<T> type) {
		ToolBinding binding = ToolBinding.defaults();
		T value;
		try {
			value = binding.mapper().readValue(json, type);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException(
					"the answer is not valid JSON for " + type.getSimpleName() + ": " + ex.getOriginalMessage());
		}
		if (value == null) {
			throw new IllegalArgumentException("the answer is null, expected " + type.getSimpleName());
		}
		List<ArgumentViolation> violations = binding.validator().validate(value);
		if (!violations.isEmpty()) {
			throw new IllegalArgumentException(violations.stream()
				.map((violation) -> violation.path().isEmpty() ? violation.message()
						: "'" + violation.path() + "' " + violation.message())
				.sorted()
				.collect(Collectors.joining("; ")));
		}
		return value;
	}

}
