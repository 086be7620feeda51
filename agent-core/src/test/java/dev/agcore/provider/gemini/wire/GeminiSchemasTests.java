package dev.agcore.provider.gemini.wire;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link GeminiSchemas}.
 */
class GeminiSchemasTests {

	@Test
	void keepsTheSubsetAndDropsWhatGeminiRejects() {
		assertThat(convert("""
				{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "title": "Order",
				 "type": "object", "additionalProperties": false, "description": "An order",
				 "properties": {
					"id": {"type": "integer", "format": "int64", "minimum": 1, "exclusiveMaximum": 100},
					"email": {"type": "string", "format": "email", "pattern": "^.+@.+$", "maxLength": 200},
					"when": {"type": "string", "format": "date-time", "default": "now"},
					"price": {"type": "number", "format": "decimal", "multipleOf": 0.01},
					"tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true},
					"meta": {"type": "object", "additionalProperties": {"type": "string"}}},
				 "required": ["id", "missing", "id"]}
				""")).isEqualTo(json("""
				{"title": "Order", "type": "object", "description": "An order",
				 "properties": {
					"id": {"type": "integer", "format": "int64", "minimum": 1},
					"email": {"type": "string", "pattern": "^.+@.+$", "maxLength": 200},
					"when": {"type": "string", "format": "date-time"},
					"price": {"type": "number"},
					"tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
					"meta": {"type": "object"}},
				 "required": ["id"]}
				"""));
	}

	@Test
	void nullTypeUnionsBecomeNullable() {
		assertThat(convert("""
				{"type": "object", "properties": {
					"a": {"type": ["string", "null"]},
					"b": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
					"c": {"oneOf": [{"type": "null"}, {"type": "object", "properties": {"x": {"type": "boolean"}}}]},
					"d": {"type": ["string", "integer"]},
					"e": {"anyOf": [{"type": "string"}, {"type": "number"}]}}}
				""")).isEqualTo(json("""
				{"type": "object", "properties": {
					"a": {"type": "string", "nullable": true},
					"b": {"type": "integer", "nullable": true},
					"c": {"type": "object", "properties": {"x": {"type": "boolean"}}, "nullable": true},
					"d": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
					"e": {"anyOf": [{"type": "string"}, {"type": "number"}]}}}
				"""));
	}

	@Test
	void constAndEnumsBecomeStringEnums() {
		assertThat(convert("""
				{"type": "object", "properties": {
					"kind": {"const": "dessert"},
					"size": {"type": "string", "enum": ["S", "M"]},
					"level": {"type": "integer", "enum": [1, 2, 3]},
					"flag": {"const": true, "type": "boolean"}}}
				""")).isEqualTo(json("""
				{"type": "object", "properties": {
					"kind": {"type": "string", "enum": ["dessert"]},
					"size": {"type": "string", "enum": ["S", "M"]},
					"level": {"type": "integer"},
					"flag": {"type": "boolean"}}}
				"""));
	}

	@Test
	void inlinesLocalReferences() {
		assertThat(convert("""
				{"type": "object",
				 "properties": {
					"home": {"$ref": "#/$defs/Address", "description": "Where they live"},
					"work": {"$ref": "#/definitions/Address"},
					"all": {"type": "array", "items": {"$ref": "#/$defs/Address"}}},
				 "$defs": {"Address": {"type": "object", "description": "An address",
					"properties": {"city": {"type": "string"}}, "required": ["city"]}},
				 "definitions": {"Address": {"type": "object", "properties": {"zip": {"type": "string"}}}}}
				""")).isEqualTo(json("""
				{"type": "object", "properties": {
					"home": {"type": "object", "description": "Where they live",
					         "properties": {"city": {"type": "string"}}, "required": ["city"]},
					"work": {"type": "object", "properties": {"zip": {"type": "string"}}},
					"all": {"type": "array", "items": {"type": "object", "description": "An address",
					         "properties": {"city": {"type": "string"}}, "required": ["city"]}}}}
				"""));
	}

	@Test
	void rejectsRecursiveAndUnresolvableReferences() {
		assertThatIllegalArgumentException().isThrownBy(() -> convert("""
				{"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}},
				 "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}}
				""")).withMessageContaining("#/$defs/Node").withMessageContaining("recursive");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> convert("{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/Gone\"}}}"))
			.withMessageContaining("#/$defs/Gone");
		assertThatIllegalArgumentException().isThrownBy(() -> convert(
				"{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"https://example.com/schema.json\"}}}"))
			.withMessageContaining("only local references");
	}

	@Test
	void infersTypesMergesAllOfAndGivesArraysItems() {
		assertThat(convert("""
				{"properties": {
					"list": {"type": "array"},
					"inferred": {"items": {"type": "string"}},
					"both": {"allOf": [
						{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
						{"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}}}
				""")).isEqualTo(json("""
				{"type": "object", "properties": {
					"list": {"type": "array", "items": {"type": "string"}},
					"inferred": {"type": "array", "items": {"type": "string"}},
					"both": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
					         "required": ["a", "b"]}}}
				"""));
	}

	@Test
	void schemasWithoutATypeBecomeStrings() {
		assertThat(convert("""
				{"type": "object", "properties": {"any": {}, "described": {"description": "Anything"}, "yes": true}}
				""")).isEqualTo(json("""
				{"type": "object", "properties": {
					"any": {"type": "string"},
					"described": {"type": "string", "description": "Anything"},
					"yes": {"type": "string"}}}
				"""));
	}

	@Test
	void leavesTheInputUnchanged() {
		ObjectNode schema = (ObjectNode) json("{\"type\": \"object\", \"additionalProperties\": false, "
				+ "\"properties\": {\"a\": {\"type\": [\"string\", \"null\"]}}}");
		ObjectNode copy = schema.deepCopy();
		GeminiSchemas.convert(schema);
		assertThat(schema).isEqualTo(copy);
	}

	private static JsonNode convert(String schema) {
		return GeminiSchemas.convert((ObjectNode) json(schema));
	}

	private static JsonNode json(String json) {
		return AgentJson.mapper().readTree(json);
	}

}
