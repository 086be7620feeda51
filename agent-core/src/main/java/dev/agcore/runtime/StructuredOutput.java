package dev.agcore.runtime;

import java.util.List;

import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ResponseFormat;
import dev.agcore.tool.binding.ToolBinding;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The structure one turn's final answer must have: a JSON schema sent to the model (as
 * its native response format, or as instructions), and the check the answer must pass
 * (parsed, mapped to a Java type, validated). One instance per turn: it keeps the
 * accepted answer.
 *
 * @param <T> the type the answer is mapped to
 */
final class StructuredOutput<T> {

	private final String name;

	private final ObjectNode schema;

	private final Converter<T> converter;

	private @Nullable T value;

	private String json = "";

	private StructuredOutput(String name, ObjectNode schema, Converter<T> converter) {
		this.name = name;
		this.schema = schema;
		this.converter = converter;
	}

	/**
	 * The answer as a Java type: its schema from the tools' generator, mapped with the
	 * tools' mapper and validated with their validator (Bean Validation when present).
	 */
	static <T> StructuredOutput<T> of(Class<T> type) {
		return new StructuredOutput<>(type.getSimpleName(), StructuredAnswers.schema(type),
				(text) -> StructuredAnswers.convert(text, type));
	}

	/**
	 * The answer as JSON matching a schema given as JSON (the HTTP endpoint's
	 * {@code responseSchema}): it must parse, and where the schema says so be an object
	 * with the {@code required} properties; deeper checks are the provider's.
	 */
	static StructuredOutput<JsonNode> json(String name, ObjectNode schema) {
		JsonMapper mapper = ToolBinding.defaults().mapper();
		return new StructuredOutput<>(name, schema, (text) -> {
			JsonNode node;
			try {
				node = mapper.readTree(text);
			}
			catch (JacksonException ex) {
				throw new IllegalArgumentException("the answer is not valid JSON: " + ex.getOriginalMessage());
			}
			if (node == null || node.isMissingNode() || node.isNull()) {
				throw new IllegalArgumentException("the answer is empty, expected JSON");
			}
			if ("object".equals(schema.path("type").asString(""))) {
				if (!node.isObject()) {
					throw new IllegalArgumentException("the answer must be a JSON object");
				}
				for (JsonNode required : schema.path("required")) {
					if (!node.has(required.asString(""))) {
						throw new IllegalArgumentException(
								"the answer misses the required property '" + required.asString("") + "'");
					}
				}
			}
			return node;
		});
	}

	/** The structure a request asks for in its options, or null for a free answer. */
	static @Nullable StructuredOutput<JsonNode> fromOptions(ChatOptions options) {
		ResponseFormat format = options.responseFormat();
		if (format == null || format.type() != ResponseFormat.Type.JSON_SCHEMA || format.schema() == null) {
			return null;
		}
		return json((format.name() != null) ? format.name() : "answer", format.schema());
	}

	/** Whether the model takes the schema as its native option. */
	static boolean isNative(ChatModel model) {
		return model.capabilities().contains(ModelCapability.STRUCTURED_OUTPUT);
	}

	/**
	 * The options of the turn's model calls: the schema as the response format for a
	 * model that takes it natively, else no response format (the schema goes into the
	 * system prompt, see {@link #instructions()}).
	 */
	ChatOptions options(ChatOptions options, boolean nativeFormat) {
		return options.mutate().responseFormat(nativeFormat ? ResponseFormat.jsonSchema(this.name, this.schema) : null)
			.build();
	}

	/** The instructions appended to the system prompt for a model without a native option. */
	String instructions() {
		return StructuredAnswers.instructions(this.schema);
	}

	/**
	 * Check a final answer; keep it if it passes.
	 * @param answer the model's text
	 * @return null if the answer passes, else what is wrong with it
	 */
	@Nullable String accept(String answer) {
		String text = StructuredAnswers.extractJson(answer);
		try {
			this.value = this.converter.convert(text);
			this.json = text;
			return null;
		}
		catch (IllegalArgumentException ex) {
			return ex.getMessage();
		}
	}

	/** The user message that asks the model once more after a failed check. */
	String repairPrompt(String problem) {
		return "Your answer could not be used: " + problem + ". " + instructions();
	}

	/** The accepted answer's JSON text. */
	String json() {
		return this.json;
	}

	/** The accepted answer; null before one was accepted. */
	@Nullable T value() {
		return this.value;
	}

	/**
	 * The typed outcome of a turn run for this structure.
	 * @throws StructuredOutputException if the turn did not complete with a valid answer
	 */
	static <T> StructuredResult<T> result(String agentName, AgentResult result, StructuredOutput<T> structured) {
		if (!result.isCompleted()) {
			throw new StructuredOutputException(agentName,
					"the turn ended " + result.status().name().toLowerCase(java.util.Locale.ROOT) + " without an answer",
					result.output());
		}
		T value = structured.value();
		if (value == null) {
			// an answer the agent did not check (a tool that returns directly, an agent of one's own)
			String problem = structured.accept(result.output());
			value = structured.value();
			if (problem != null || value == null) {
				throw new StructuredOutputException(agentName, (problem != null) ? problem : "no answer",
						result.output());
			}
		}
		return new StructuredResult<>(value, result);
	}

	/** Maps the answer's JSON text to the type; throws with the problem. */
	@FunctionalInterface
	private interface Converter<T> {

		T convert(String json);

	}

}
