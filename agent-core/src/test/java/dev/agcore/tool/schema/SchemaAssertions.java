package dev.agcore.tool.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * Walks a schema the way a model API reads it and collects anything those APIs reject.
 * Property names inside {@code properties} are data, not keywords, so a property named
 * {@code title} is fine.
 */
final class SchemaAssertions {

	private static final Set<String> FORBIDDEN = Set.of("$ref", "$defs", "definitions", "$schema", "title");

	private SchemaAssertions() {
	}

	static List<String> problems(JsonNode schema) {
		List<String> problems = new ArrayList<>();
		walk(schema, "#", problems);
		return problems;
	}

	private static void walk(JsonNode schema, String path, List<String> problems) {
		if (!schema.isObject()) {
			return;
		}
		for (String key : schema.propertyNames()) {
			if (FORBIDDEN.contains(key)) {
				problems.add(path + " has '" + key + "'");
			}
		}
		if (isObjectType(schema) && !schema.has("properties") && !isFreeForm(schema)) {
			problems.add(path + " is an object without 'properties'");
		}
		for (Map.Entry<String, JsonNode> entry : schema.properties()) {
			String key = entry.getKey();
			JsonNode value = entry.getValue();
			if (key.equals("properties") || key.equals("patternProperties")) {
				value.properties().forEach((property) -> walk(property.getValue(),
						path + "/" + key + "/" + property.getKey(), problems));
			}
			else if (key.equals("items") || key.equals("additionalProperties") || key.equals("not")) {
				walk(value, path + "/" + key, problems);
			}
			else if (key.equals("anyOf") || key.equals("oneOf") || key.equals("allOf")) {
				for (int i = 0; i < value.size(); i++) {
					walk(value.get(i), path + "/" + key + "/" + i, problems);
				}
			}
		}
	}

	private static boolean isObjectType(JsonNode schema) {
		JsonNode type = schema.get("type");
		return type != null && type.isString() && type.asString().equals("object");
	}

	private static boolean isFreeForm(JsonNode schema) {
		JsonNode additional = schema.get("additionalProperties");
		return additional != null && !(additional.isBoolean() && !additional.booleanValue());
	}

}
