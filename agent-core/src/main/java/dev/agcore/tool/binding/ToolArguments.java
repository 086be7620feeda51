package dev.agcore.tool.binding;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.tool.ToolArgumentsException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the model's arguments text and puts it in the shape the schema promised, before
 * anything is bound:
 * <ul>
 * <li>an optional property sent as {@code null} or as an empty string {@code ""} counts
 * as absent (models send these for what they mean to leave out); for a required property
 * {@code ""} is kept, {@code null} is missing;</li>
 * <li>an absent property with a schema {@code default} gets that default;</li>
 * <li>a required property that is absent is reported, with its path.</li>
 * </ul>
 * This applies at every level: nested objects, array items and map values.
 */
public final class ToolArguments {

	private ToolArguments() {
	}

	/**
	 * Parse the arguments text; blank text is an empty object.
	 * @param arguments the text the model sent
	 * @param mapper the mapper to parse with
	 * @return the arguments object
	 * @throws ToolArgumentsException if the text is not a JSON object
	 */
	public static ObjectNode parse(@Nullable String arguments, JsonMapper mapper) {
		if (arguments == null || arguments.isBlank()) {
			return mapper.createObjectNode();
		}
		JsonNode tree;
		try {
			tree = mapper.readTree(arguments);
		}
		catch (JacksonException ex) {
			throw ArgumentErrors.notJson(ex);
		}
		if (tree instanceof ObjectNode object) {
			return object;
		}
		throw new ToolArgumentsException("Arguments must be a JSON object");
	}

	/**
	 * Normalise parsed arguments in place against the schema they were sent for.
	 * @param arguments the arguments object
	 * @param schema the object schema of the arguments
	 * @throws ToolArgumentsException naming the first required parameter that is missing
	 */
	public static void normalize(ObjectNode arguments, JsonNode schema) {
		Objects.requireNonNull(arguments, "'arguments' must not be null");
		Objects.requireNonNull(schema, "'schema' must not be null");
		object(arguments, schema, "");
	}

	private static void object(ObjectNode value, JsonNode schema, String path) {
		JsonNode required = schema.path("required");
		for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
			String name = property.getKey();
			JsonNode propertySchema = property.getValue();
			JsonNode sent = value.get(name);
			boolean isRequired = contains(required, name);
			if (sent != null && !isRequired && isEmpty(sent)) {
				value.remove(name);
				sent = null;
			}
			String propertyPath = path.isEmpty() ? name : path + "." + name;
			if (sent == null || sent.isNull()) {
				if (isRequired) {
					throw ArgumentErrors.missing(propertyPath);
				}
				JsonNode defaultValue = propertySchema.get("default");
				if (defaultValue != null) {
					value.set(name, defaultValue.deepCopy());
				}
				continue;
			}
			nested(sent, propertySchema, propertyPath);
		}
		JsonNode additional = schema.get("additionalProperties");
		if (additional != null && additional.isObject() && additional.has("properties")) {
			for (String name : List.copyOf(value.propertyNames())) {
				if (!schema.path("properties").has(name)) {
					nested(value.get(name), additional, path.isEmpty() ? name : path + "." + name);
				}
			}
		}
	}

	private static void nested(JsonNode value, JsonNode schema, String path) {
		if (value instanceof ObjectNode object && (schema.has("properties") || schema.has("additionalProperties"))) {
			object(object, schema, path);
		}
		else if (value.isArray() && schema.path("items").isObject()) {
			for (int i = 0; i < value.size(); i++) {
				JsonNode item = value.get(i);
				if (item != null && !item.isNull()) {
					nested(item, schema.get("items"), path + "[" + i + "]");
				}
			}
		}
	}

	// a schema's required list is short: a scan, no set built on every call
	private static boolean contains(JsonNode names, String name) {
		for (int i = 0; i < names.size(); i++) {
			if (name.equals(names.get(i).asString())) {
				return true;
			}
		}
		return false;
	}

	// models often send "" or null for a parameter they mean to leave out
	private static boolean isEmpty(JsonNode value) {
		return value.isNull() || (value.isString() && value.asString().isEmpty());
	}

}
