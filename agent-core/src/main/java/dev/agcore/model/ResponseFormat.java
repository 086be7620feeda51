package dev.agcore.model;

import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The shape the model's answer must take. Providers send a JSON schema as their native
 * option where they have one (OpenAI {@code response_format}, Gemini
 * {@code responseSchema}, Anthropic through a forced tool); see
 * {@link ModelCapability#STRUCTURED_OUTPUT}.
 *
 * @param type the kind of answer
 * @param name a name for the schema (OpenAI requires one), null for {@code TEXT} and
 * {@code JSON_OBJECT}
 * @param schema the JSON schema of the answer, only with {@code JSON_SCHEMA}
 * @param strict whether the provider should enforce the schema exactly where it can
 */
public record ResponseFormat(Type type, @Nullable String name, @Nullable ObjectNode schema, boolean strict) {

	/** Plain text (the default). */
	public static final ResponseFormat TEXT = new ResponseFormat(Type.TEXT, null, null, false);

	/** Any JSON object. */
	public static final ResponseFormat JSON_OBJECT = new ResponseFormat(Type.JSON_OBJECT, null, null, false);

	public ResponseFormat {
		Objects.requireNonNull(type, "'type' must not be null");
		if ((type == Type.JSON_SCHEMA) != (schema != null)) {
			throw new IllegalArgumentException("A schema is given exactly when the type is JSON_SCHEMA");
		}
		if (type == Type.JSON_SCHEMA && (name == null || name.isBlank())) {
			name = "answer";
		}
	}

	/**
	 * An answer matching a JSON schema.
	 * @param name the schema's name, such as the Java type's simple name
	 * @param schema the schema
	 * @return the format
	 */
	public static ResponseFormat jsonSchema(String name, ObjectNode schema) {
		return new ResponseFormat(Type.JSON_SCHEMA, name, schema, true);
	}

	/** The kinds of answer. */
	public enum Type {

		/** Free text. */
		TEXT,
		/** A JSON object of any shape. */
		JSON_OBJECT,
		/** A JSON value matching {@link ResponseFormat#schema()}. */
		JSON_SCHEMA

	}

}
