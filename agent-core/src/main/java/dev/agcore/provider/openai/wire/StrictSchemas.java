package dev.agcore.provider.openai.wire;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fits a JSON schema to OpenAI's strict structured outputs, where every object closes
 * its properties ({@code additionalProperties: false}) and lists all of them as required.
 * {@link #tighten} closes the objects that say nothing about other properties and turns
 * an optional property into a required one that may be null (which a Java record reads
 * the same); a schema that still does not fit (an object open on purpose, say) is sent
 * with {@code strict: false}, because OpenAI rejects {@code strict: true} with it: the
 * model is still asked for the schema, only not forced.
 */
final class StrictSchemas {

	// a deeper schema is not worth walking: it is sent without strict
	private static final int MAX_DEPTH = 32;

	private StrictSchemas() {
	}

	/**
	 * Return a copy of the schema with objects closed and optional properties required
	 * but nullable; the schema itself when it has nothing to change.
	 */
	static ObjectNode tighten(ObjectNode schema) {
		ObjectNode copy = schema.deepCopy();
		tighten(copy, 0);
		return copy;
	}

	private static void tighten(JsonNode node, int depth) {
		if (depth > MAX_DEPTH || !node.isContainer()) {
			return;
		}
		if (node instanceof ObjectNode object && object.get("properties") instanceof ObjectNode properties) {
			if (!object.has("additionalProperties")) {
				object.put("additionalProperties", false);
			}
			Set<String> required = new LinkedHashSet<>();
			object.path("required").forEach((name) -> required.add(name.asString()));
			for (Map.Entry<String, JsonNode> property : properties.properties()) {
				if (required.add(property.getKey()) && property.getValue() instanceof ObjectNode optional) {
					nullable(optional);
				}
			}
			ArrayNode list = object.putArray("required");
			required.forEach(list::add);
		}
		for (JsonNode child : node) {
			tighten(child, depth + 1);
		}
	}

	// {"type": "string"} becomes {"type": ["string", "null"]}; a schema without a plain
	// type is left alone, and then fails isStrict only if OpenAI would reject it anyway
	private static void nullable(ObjectNode schema) {
		JsonNode type = schema.get("type");
		if (type != null && type.isString() && !type.asString().equals("null")) {
			ArrayNode types = schema.putArray("type");
			types.add(type.asString());
			types.add("null");
		}
	}

	static boolean isStrict(@Nullable JsonNode schema) {
		return schema != null && isStrict(schema, 0);
	}

	private static boolean isStrict(JsonNode schema, int depth) {
		if (depth > MAX_DEPTH) {
			return false;
		}
		if (!schema.isObject()) {
			return true;
		}
		JsonNode properties = schema.get("properties");
		boolean object = "object".equals(schema.path("type").asString(""))
				|| (properties != null && properties.isObject());
		if (object) {
			JsonNode additional = schema.get("additionalProperties");
			if (additional == null || !additional.isBoolean() || additional.asBoolean()) {
				return false;
			}
		}
		if (properties != null && properties.isObject()) {
			Set<String> required = new HashSet<>();
			JsonNode list = schema.get("required");
			if (list != null) {
				list.forEach((name) -> required.add(name.asString()));
			}
			for (Map.Entry<String, JsonNode> property : properties.properties()) {
				if (!required.contains(property.getKey())) {
					return false;
				}
			}
		}
		for (JsonNode child : schema) {
			if (child.isContainer()) {
				for (JsonNode nested : child.isArray() ? child : Set.of(child)) {
					if (!isStrict(nested, depth + 1)) {
						return false;
					}
				}
			}
		}
		return true;
	}

}
