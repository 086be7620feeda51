package dev.agcore.provider.gemini.wire;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts a JSON schema, as tools and structured output describe their JSON, to the
 * OpenAPI 3.0 subset Gemini takes in {@code functionDeclarations[].parameters} and
 * {@code generationConfig.responseSchema}:
 * <ul>
 * <li>local {@code $ref}s ({@code #/$defs/...}, {@code #/definitions/...}) are inlined; a
 * recursive or unresolvable one is rejected with an {@link IllegalArgumentException}
 * naming it, as Gemini's schema cannot express it;</li>
 * <li>a type union with {@code "null"} ({@code ["string","null"]}, or an
 * {@code anyOf}/{@code oneOf} with a {@code {"type":"null"}} member) becomes
 * {@code nullable: true}; other unions and {@code oneOf} become {@code anyOf};</li>
 * <li>a string {@code const} becomes a one-value {@code enum}; an {@code enum} of other
 * than strings is dropped, as Gemini's enums are strings;</li>
 * <li>a single {@code allOf} member is merged in; several are merged property by
 * property;</li>
 * <li>{@code format} is kept only where Gemini knows it ({@code date-time} and
 * {@code enum} for strings, {@code float}/{@code double} for numbers,
 * {@code int32}/{@code int64} for integers);</li>
 * <li>a schema that gives no type (such as {@code {}}, any value) becomes a string;</li>
 * <li>every other keyword ({@code additionalProperties}, {@code $schema}, {@code $id},
 * {@code default}, {@code examples}, {@code exclusiveMinimum}, ...) is dropped;
 * {@code required} keeps only names that are properties.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class GeminiSchemas {

	private static final int MAX_DEPTH = 64;

	private static final Set<String> COPIED = Set.of("title", "description", "minItems", "maxItems", "minProperties",
			"maxProperties", "minLength", "maxLength", "pattern", "minimum", "maximum");

	private static final Map<String, Set<String>> FORMATS = Map.of("string", Set.of("date-time", "enum"), "number",
			Set.of("float", "double"), "integer", Set.of("int32", "int64"));

	private GeminiSchemas() {
	}

	/**
	 * Convert a schema.
	 * @param schema the JSON schema, not modified
	 * @return a new schema in Gemini's subset
	 * @throws IllegalArgumentException if the schema holds a recursive or unresolvable
	 * {@code $ref}, or nests deeper than 64 levels
	 */
	public static ObjectNode convert(ObjectNode schema) {
		return convert(schema, schema, new ArrayList<>(), 0);
	}

	private static ObjectNode convert(JsonNode node, ObjectNode root, List<String> refs, int depth) {
		if (depth > MAX_DEPTH) {
			throw new IllegalArgumentException("The schema nests deeper than " + MAX_DEPTH + " levels");
		}
		ObjectNode out = JsonNodeFactory.instance.objectNode();
		if (!node.isObject()) {
			// true in JSON schema: anything; Gemini needs a type, a string is the loosest
			return out.put("type", "string");
		}
		JsonNode ref = node.get("$ref");
		if (ref != null && ref.isString()) {
			String target = ref.asString();
			if (refs.contains(target)) {
				throw new IllegalArgumentException("The schema refers to itself through '" + target
						+ "'; Gemini's schema format cannot express recursive types");
			}
			List<String> inner = new ArrayList<>(refs);
			inner.add(target);
			ObjectNode resolved = convert(resolve(root, target), root, inner, depth + 1);
			// a description next to a $ref describes the use, not the type
			copyIfPresent(node, resolved, "description");
			return resolved;
		}
		boolean nullable = node.path("nullable").asBoolean(false);
		JsonNode type = node.get("type");
		if (type != null && type.isArray()) {
			List<String> types = new ArrayList<>();
			for (JsonNode each : type) {
				if ("null".equals(each.asString())) {
					nullable = true;
				}
				else {
					types.add(each.asString());
				}
			}
			if (types.size() == 1) {
				putType(out, node, types.get(0), root, refs, depth);
			}
			else if (!types.isEmpty()) {
				ArrayNode anyOf = out.putArray("anyOf");
				for (String each : types) {
					ObjectNode copy = ((ObjectNode) node).deepCopy();
					copy.put("type", each);
					anyOf.add(convert(copy, root, refs, depth + 1));
				}
			}
		}
		else if (type != null && type.isString() && !"null".equals(type.asString())) {
			putType(out, node, type.asString(), root, refs, depth);
		}
		else if (type != null && "null".equals(type.asString())) {
			out.put("type", "string");
			nullable = true;
		}
		else if (node.has("properties")) {
			putType(out, node, "object", root, refs, depth);
		}
		else if (node.has("items")) {
			putType(out, node, "array", root, refs, depth);
		}
		nullable |= convertUnion(node, out, root, refs, depth);
		mergeAllOf(node, out, root, refs, depth);
		for (String keyword : COPIED) {
			copyIfPresent(node, out, keyword);
		}
		JsonNode constant = node.get("const");
		if (constant != null && constant.isString()) {
			out.putArray("enum").add(constant.asString());
			out.putIfAbsent("type", out.stringNode("string"));
		}
		JsonNode values = node.get("enum");
		if (values != null && values.isArray() && !values.isEmpty() && allStrings(values)) {
			ArrayNode enumValues = out.putArray("enum");
			values.forEach((value) -> enumValues.add(value.asString()));
			out.putIfAbsent("type", out.stringNode("string"));
		}
		if (!out.has("type") && !out.has("anyOf")) {
			// Gemini requires a type; a schema that allows anything is best filled in as text
			out.put("type", "string");
		}
		if (nullable) {
			out.put("nullable", true);
		}
		return out;
	}

	private static void putType(ObjectNode out, JsonNode node, String type, ObjectNode root, List<String> refs,
			int depth) {
		out.put("type", type);
		JsonNode format = node.get("format");
		if (format != null && FORMATS.getOrDefault(type, Set.of()).contains(format.asString())) {
			out.put("format", format.asString());
		}
		if ("object".equals(type)) {
			JsonNode properties = node.get("properties");
			if (properties != null && properties.isObject() && !properties.isEmpty()) {
				ObjectNode converted = out.putObject("properties");
				for (Map.Entry<String, JsonNode> property : properties.properties()) {
					converted.set(property.getKey(), convert(property.getValue(), root, refs, depth + 1));
				}
				JsonNode required = node.get("required");
				if (required != null && required.isArray()) {
					ArrayNode kept = JsonNodeFactory.instance.arrayNode();
					Set<String> seen = new LinkedHashSet<>();
					for (JsonNode name : required) {
						if (converted.has(name.asString()) && seen.add(name.asString())) {
							kept.add(name.asString());
						}
					}
					if (!kept.isEmpty()) {
						out.set("required", kept);
					}
				}
			}
		}
		if ("array".equals(type)) {
			JsonNode items = node.get("items");
			// Gemini requires items on an array
			out.set("items", (items != null && !items.isArray()) ? convert(items, root, refs, depth + 1)
					: JsonNodeFactory.instance.objectNode().put("type", "string"));
		}
	}

	// anyOf / oneOf: a null member makes the rest nullable; returns whether one was there
	private static boolean convertUnion(JsonNode node, ObjectNode out, ObjectNode root, List<String> refs,
			int depth) {
		JsonNode union = node.has("anyOf") ? node.get("anyOf") : node.get("oneOf");
		if (union == null || !union.isArray()) {
			return false;
		}
		boolean nullable = false;
		List<ObjectNode> members = new ArrayList<>();
		for (JsonNode member : union) {
			if ("null".equals(member.path("type").asString(""))) {
				nullable = true;
			}
			else {
				members.add(convert(member, root, refs, depth + 1));
			}
		}
		if (members.size() == 1) {
			ObjectNode only = members.get(0);
			for (Map.Entry<String, JsonNode> entry : only.properties()) {
				out.putIfAbsent(entry.getKey(), entry.getValue());
			}
		}
		else if (!members.isEmpty()) {
			out.putArray("anyOf").addAll(members);
		}
		return nullable;
	}

	private static void mergeAllOf(JsonNode node, ObjectNode out, ObjectNode root, List<String> refs, int depth) {
		JsonNode allOf = node.get("allOf");
		if (allOf == null || !allOf.isArray()) {
			return;
		}
		for (JsonNode member : allOf) {
			ObjectNode converted = convert(member, root, refs, depth + 1);
			for (Map.Entry<String, JsonNode> entry : converted.properties()) {
				JsonNode existing = out.get(entry.getKey());
				if (existing instanceof ObjectNode object && entry.getValue().isObject()
						&& "properties".equals(entry.getKey())) {
					object.setAll((ObjectNode) entry.getValue());
				}
				else if (existing instanceof ArrayNode array && entry.getValue().isArray()
						&& "required".equals(entry.getKey())) {
					array.addAll((ArrayNode) entry.getValue());
				}
				else {
					out.putIfAbsent(entry.getKey(), entry.getValue());
				}
			}
		}
	}

	private static JsonNode resolve(ObjectNode root, String ref) {
		if (ref.equals("#")) {
			return root;
		}
		if (ref.startsWith("#/")) {
			JsonNode target = root;
			for (String segment : ref.substring(2).split("/")) {
				target = target.path(segment.replace("~1", "/").replace("~0", "~"));
			}
			if (target.isObject()) {
				return target;
			}
		}
		throw new IllegalArgumentException(
				"The schema's $ref '" + ref + "' cannot be resolved; only local references (#/$defs/...) are supported");
	}

	private static boolean allStrings(JsonNode values) {
		for (Iterator<JsonNode> it = values.iterator(); it.hasNext();) {
			if (!it.next().isString()) {
				return false;
			}
		}
		return true;
	}

	private static void copyIfPresent(JsonNode from, ObjectNode to, String keyword) {
		JsonNode value = from.get(keyword);
		if (value != null && !value.isNull() && !value.isContainer()) {
			to.set(keyword, value);
		}
	}

}
