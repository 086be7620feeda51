package dev.agcore.tool.schema;

import java.util.Objects;

import tools.jackson.databind.node.ObjectNode;

/**
 * Normalises argument schemas written outside the application, such as those of MCP
 * servers, into the same subset model APIs accept that {@link JsonSchemaGenerator}
 * produces for the application's own tools.
 *
 * @since 0.1.0
 */
public final class ToolSchemas {

	private ToolSchemas() {
	}

	/**
	 * Return a normalised copy of a tool's arguments schema: every {@code $ref} inlined
	 * (a recursive one becomes a free-form object), no definitions, {@code $schema} or
	 * {@code title}, no {@code null} type alternatives, a {@code properties} object on
	 * every object schema that is not free-form, and {@code "type": "object"} at the root
	 * when the schema does not say its type (tool arguments are always an object).
	 * @param schema the schema as its author wrote it; not modified
	 * @return the normalised schema
	 * @throws IllegalArgumentException if the schema has a {@code $ref} that points
	 * nowhere inside it
	 */
	public static ObjectNode normalize(ObjectNode schema) {
		Objects.requireNonNull(schema, "'schema' must not be null");
		ObjectNode typed = schema.deepCopy();
		if (!typed.has("type")) {
			typed.put("type", "object");
		}
		try {
			return SchemaNormalizer.normalize(typed);
		}
		catch (IllegalStateException ex) {
			throw new IllegalArgumentException(ex.getMessage(), ex);
		}
	}

	/**
	 * Return a schema that accepts any JSON object, for a tool whose schema cannot be
	 * used.
	 * @return a new free-form object schema
	 */
	public static ObjectNode anyObject() {
		return SchemaNormalizer.freeFormObject();
	}

}
