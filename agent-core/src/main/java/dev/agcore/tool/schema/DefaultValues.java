package dev.agcore.tool.schema;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.JsonNodeType;

/**
 * Turns a {@code @ToolParam(defaultValue = ...)} text into the JSON value the schema
 * shows and binding applies. The text is read the way the model would write the value:
 * as JSON ({@code 10}, {@code true}, {@code [1, 2]}) or, for types sent as strings, as
 * the string itself ({@code en}, {@code 2025-01-31}). The value is bound once to the
 * parameter's type, so a default that does not fit fails when the tool is created.
 */
final class DefaultValues {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private DefaultValues() {
	}

	/**
	 * Return the JSON value of a default.
	 * @param text the default as declared
	 * @param type the parameter's type ({@code Optional<T>} for {@code T})
	 * @param mapper the mapper arguments are bound with
	 * @return the value, as the mapper writes it
	 * @throws IllegalArgumentException if the text is not a value of the type
	 */
	static JsonNode parse(String text, Type type, JsonMapper mapper) {
		Type valueType = ToolParameter.unwrapOptional(type);
		JsonNode asJson = readJson(text, mapper);
		JsonNode value = (asJson != null) ? canonical(asJson, valueType, mapper) : null;
		if (value == null) {
			value = canonical(NODES.stringNode(text), valueType, mapper);
		}
		if (value == null) {
			throw new IllegalArgumentException(
					"default value '" + text + "' is not a valid " + mapper.constructType(valueType).getRawClass().getSimpleName());
		}
		return value;
	}

	private static @Nullable JsonNode readJson(String text, JsonMapper mapper) {
		try {
			return mapper.readTree(text);
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	/** The value as the mapper writes it, if the candidate binds without changing kind. */
	private static @Nullable JsonNode canonical(JsonNode candidate, Type type, JsonMapper mapper) {
		Object bound;
		try {
			bound = mapper.readerFor(mapper.constructType(type)).readValue(candidate);
		}
		catch (JacksonException ex) {
			return null;
		}
		if (bound == null) {
			return null;
		}
		JsonNode written = mapper.valueToTree(bound);
		// "7" for a String binds from the number 7 too; keep the kind the model must send
		return (kind(written) == kind(candidate)) ? written : null;
	}

	private static JsonNodeType kind(JsonNode node) {
		return node.getNodeType();
	}

}
