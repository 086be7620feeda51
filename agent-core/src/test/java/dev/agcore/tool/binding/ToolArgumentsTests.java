package dev.agcore.tool.binding;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolArgumentsException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ToolArguments}: the hygiene applied to the model's arguments before
 * binding.
 */
class ToolArgumentsTests {

	private static final JsonNode SCHEMA = AgentJson.mapper().readTree("""
			{"type": "object",
			 "properties": {
			   "name": {"type": "string"},
			   "note": {"type": "string"},
			   "limit": {"type": "integer", "default": 10},
			   "stops": {"type": "array", "items": {"type": "object",
			     "properties": {"city": {"type": "string"}, "hotel": {"type": "string"},
			                    "nights": {"type": "integer", "default": 1}},
			     "required": ["city"]}},
			   "byDay": {"type": "object", "additionalProperties": {"type": "object",
			     "properties": {"city": {"type": "string"}}, "required": ["city"]}}
			 },
			 "required": ["name"]}
			""");

	@Test
	void emptyStringForAnOptionalParameterCountsAsAbsent() {
		assertThat(normalize("{\"name\":\"a\",\"note\":\"\",\"limit\":\"\"}"))
			.isEqualTo(json("{\"name\":\"a\",\"limit\":10}"));
	}

	@Test
	void emptyStringForARequiredParameterIsKept() {
		assertThat(normalize("{\"name\":\"\"}")).isEqualTo(json("{\"name\":\"\",\"limit\":10}"));
	}

	@Test
	void nullForARequiredParameterIsMissing() {
		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> normalize("{\"name\":null}"))
			.withMessage("Missing required parameter 'name'");
	}

	@Test
	void appliesTheRulesInsideArraysAndMaps() {
		assertThat(normalize("""
				{"name": "a", "stops": [{"city": "Lyon", "hotel": ""}, null], "byDay": {"mon": {"city": "Nice"}}}
				""")).isEqualTo(json("""
				{"name": "a", "stops": [{"city": "Lyon", "nights": 1}, null], "byDay": {"mon": {"city": "Nice"}},
				 "limit": 10}
				"""));
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> normalize("{\"name\":\"a\",\"stops\":[{\"city\":\"A\"},{\"hotel\":\"B\"}]}"))
			.withMessage("Missing required parameter 'stops[1].city'");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> normalize("{\"name\":\"a\",\"byDay\":{\"tue\":{}}}"))
			.withMessage("Missing required parameter 'byDay.tue.city'");
	}

	@Test
	void blankTextIsAnEmptyObject() {
		assertThat(ToolArguments.parse(" ", AgentJson.mapper())).isEmpty();
	}

	private static ObjectNode normalize(String arguments) {
		ObjectNode values = ToolArguments.parse(arguments, AgentJson.mapper());
		ToolArguments.normalize(values, SCHEMA);
		return values;
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

}
