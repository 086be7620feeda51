package dev.agcore.provider.openai.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code response_format} of a request.
 *
 * @param type {@code text}, {@code json_object} or {@code json_schema}
 * @param jsonSchema the schema, with {@code json_schema} only
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WireResponseFormat(String type, @JsonProperty("json_schema") @Nullable JsonSchema jsonSchema) {

	/**
	 * A named JSON schema.
	 *
	 * @param name the schema's name
	 * @param schema the schema
	 * @param strict whether the server enforces it exactly
	 */
	public record JsonSchema(String name, ObjectNode schema, boolean strict) {

	}

}
