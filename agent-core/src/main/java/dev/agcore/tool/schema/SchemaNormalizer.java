package dev.agcore.tool.schema;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.POJONode;

/**
 * Rewrites a generated schema into the subset model APIs accept: every {@code $ref}
 * inlined (a recursive reference becomes a free-form object), no definitions, no
 * {@code $schema} or {@code title}, no {@code null} type alternatives, and a
 * {@code properties} object on every object schema that is not free-form.
 */
final class SchemaNormalizer {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private static final Set<String> DROPPED = Set.of("$schema", "$id", "$anchor", "$comment", "title", "$defs",
			"definitions");

	private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "dependentSchemas");

	private static final Set<String> SCHEMA_LISTS = Set.of("anyOf", "oneOf", "allOf", "prefixItems", "items");

	private static final Set<String> SCHEMA_VALUES = Set.of("items", "additionalProperties", "not", "contains",
			"propertyNames", "if", "then", "else", "additionalItems", "unevaluatedItems", "unevaluatedProperties");

	private final ObjectNode root;

	private final ObjectNode definitions;

	private SchemaNormalizer(ObjectNode root, ObjectNode definitions) {
		this.root = root;
		this.definitions = definitions;
	}

	/**
	 * Return a normalised copy of a generated schema.
	 * @param generated the schema as the generator produced it
	 * @return the normalised schema
	 */
	static ObjectNode normalize(ObjectNode generated) {
		ObjectNode root = generated.deepCopy();
		ObjectNode definitions = NODES.objectNode();
		for (String key : new String[] { "definitions", "$defs" }) {
			if (root.remove(key) instanceof ObjectNode defs) {
				definitions.setAll(defs);
			}
		}
		Deque<String> expanding = new ArrayDeque<>();
		expanding.push("#");
		return new SchemaNormalizer(root, definitions).schema(root, expanding);
	}

	/**
	 * Return a schema that accepts any JSON object.
	 * @return a new free-form object schema
	 */
	static ObjectNode freeFormObject() {
		ObjectNode schema = NODES.objectNode();
		schema.put("type", "object");
		schema.put("additionalProperties", true);
		return schema;
	}

	private ObjectNode schema(ObjectNode node, Deque<String> expanding) {
		JsonNode ref = node.get("$ref");
		if (ref != null && ref.isString()) {
			return inline(node, ref.asString(), expanding);
		}
		ObjectNode result = NODES.objectNode();
		for (Map.Entry<String, JsonNode> entry : node.properties()) {
			String key = entry.getKey();
			JsonNode value = entry.getValue();
			if (DROPPED.contains(key)) {
				continue;
			}
			if (SCHEMA_MAPS.contains(key) && value instanceof ObjectNode map) {
				ObjectNode schemas = result.putObject(key);
				for (Map.Entry<String, JsonNode> property : map.properties()) {
					schemas.set(property.getKey(), child(property.getValue(), expanding));
				}
			}
			else if (SCHEMA_LISTS.contains(key) && value instanceof ArrayNode list) {
				ArrayNode schemas = result.putArray(key);
				list.forEach((item) -> schemas.add(child(item, expanding)));
			}
			else if (SCHEMA_VALUES.contains(key) && value instanceof ObjectNode schema) {
				// an empty schema allows anything; say so in the form model APIs understand
				result.set(key, (schema.isEmpty() && key.equals("additionalProperties")) ? NODES.booleanNode(true)
						: schema(schema, expanding));
			}
			else if (value instanceof POJONode pojo && pojo.getPojo() instanceof JsonNode json) {
				// victools wraps JSON values it does not know (our typed defaults) as POJOs
				result.set(key, json.deepCopy());
			}
			else {
				result.set(key, value.deepCopy());
			}
		}
		return typeFirst(ensureProperties(dropNullAlternative(result)));
	}

	// "type" and "description" lead, where people reading a schema look for them
	private static ObjectNode typeFirst(ObjectNode schema) {
		if (!schema.has("type") && !schema.has("description")) {
			return schema;
		}
		ObjectNode ordered = NODES.objectNode();
		for (String key : new String[] { "type", "description" }) {
			if (schema.has(key)) {
				ordered.set(key, schema.get(key));
			}
		}
		ordered.setAll(schema);
		return ordered;
	}

	private JsonNode child(JsonNode node, Deque<String> expanding) {
		return (node instanceof ObjectNode object) ? schema(object, expanding) : node.deepCopy();
	}

	private ObjectNode inline(ObjectNode node, String ref, Deque<String> expanding) {
		ObjectNode siblings = node.deepCopy();
		siblings.remove("$ref");
		if (expanding.contains(ref)) {
			// a recursive type: cut the cycle instead of emitting a $ref
			ObjectNode free = freeFormObject();
			JsonNode description = siblings.get("description");
			if (description != null) {
				free.set("description", description);
			}
			return free;
		}
		ObjectNode merged = resolve(ref).deepCopy();
		merged.setAll(siblings);
		expanding.push(ref);
		try {
			return schema(merged, expanding);
		}
		finally {
			expanding.pop();
		}
	}

	private ObjectNode resolve(String ref) {
		if (ref.equals("#")) {
			return this.root;
		}
		String name = ref.substring(ref.lastIndexOf('/') + 1);
		if (this.definitions.get(name) instanceof ObjectNode definition) {
			return definition;
		}
		throw new IllegalStateException("Schema has an unresolvable $ref '" + ref + "'");
	}

	// "type": ["string", "null"] and "anyOf": [{"type": "null"}, X] both become X
	private static ObjectNode dropNullAlternative(ObjectNode schema) {
		if (schema.get("type") instanceof ArrayNode types) {
			ArrayNode kept = NODES.arrayNode();
			types.forEach((type) -> {
				if (!type.isString() || !type.asString().equals("null")) {
					kept.add(type);
				}
			});
			schema.set("type", (kept.size() == 1) ? kept.get(0) : kept);
		}
		if (schema.get("anyOf") instanceof ArrayNode anyOf && anyOf.size() == 2) {
			ObjectNode other = nonNullAlternative(anyOf);
			if (other != null) {
				schema.remove("anyOf");
				ObjectNode merged = other.deepCopy();
				merged.setAll(schema);
				return merged;
			}
		}
		return schema;
	}

	private static @Nullable ObjectNode nonNullAlternative(ArrayNode anyOf) {
		for (int i = 0; i < 2; i++) {
			JsonNode type = anyOf.get(i).get("type");
			if (type != null && type.isString() && type.asString().equals("null") && anyOf.get(i).size() == 1
					&& anyOf.get(1 - i) instanceof ObjectNode other) {
				return other;
			}
		}
		return null;
	}

	private static ObjectNode ensureProperties(ObjectNode schema) {
		if (isObjectType(schema) && !schema.has("properties") && !isFreeForm(schema)) {
			schema.putObject("properties");
		}
		return schema;
	}

	static boolean isObjectType(JsonNode schema) {
		JsonNode type = schema.get("type");
		if (type == null) {
			return false;
		}
		if (type.isArray()) {
			for (JsonNode each : type) {
				if (each.isString() && each.asString().equals("object")) {
					return true;
				}
			}
			return false;
		}
		return type.isString() && type.asString().equals("object");
	}

	static boolean isFreeForm(JsonNode schema) {
		JsonNode additional = schema.get("additionalProperties");
		return (additional != null && !(additional.isBoolean() && !additional.booleanValue()))
				|| schema.has("patternProperties");
	}

}
