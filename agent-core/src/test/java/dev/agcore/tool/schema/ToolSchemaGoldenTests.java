package dev.agcore.tool.schema;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.typed.TypedTools;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden tests for the schemas of every kind of tool, as the model receives them:
 * defaults, Bean Validation constraints, nested records, injected parameters (absent),
 * raw arguments and typed tools.
 */
class ToolSchemaGoldenTests {

	@ParameterizedTest(name = "{0}")
	@MethodSource("tools")
	void schemaMatchesGoldenFile(String name, ToolCallback tool) throws IOException {
		// re-read so numbers compare by value, whatever node type the generator chose
		JsonNode schema = AgentJson.mapper().readTree(tool.spec().inputSchema().toString());
		assertThat(schema).isEqualTo(golden(name));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("tools")
	void schemaHasNoConstructsModelApisReject(String name, ToolCallback tool) {
		assertThat(SchemaAssertions.problems(tool.spec().inputSchema())).isEmpty();
	}

	static Stream<Arguments> tools() {
		Map<String, ToolCallback> tools = new LinkedHashMap<>();
		for (ToolCallback tool : MethodTools.from(new ToolFixtures())) {
			tools.put(tool.spec().name().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(), tool);
		}
		tools.put("typed-forecast", TypedTools.from(new ToolFixtures.ForecastTool()));
		tools.put("typed-order", TypedTools.from(new ToolFixtures.OrderTool()));
		tools.put("typed-echo", TypedTools.from(new ToolFixtures.EchoTool()));
		return tools.entrySet().stream().map((entry) -> Arguments.of(entry.getKey(), entry.getValue()));
	}

	private static JsonNode golden(String name) throws IOException {
		try (InputStream in = ToolSchemaGoldenTests.class.getResourceAsStream("golden/" + name + ".json")) {
			assertThat(in).as(name).isNotNull();
			return AgentJson.mapper().readTree(in);
		}
	}

}
