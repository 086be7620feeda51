package dev.agcore.mcp;

import java.util.List;
import java.util.Map;

import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolPermission;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class McpToolCallbackTests {

	@Test
	void aTrustedServersAnnotationsGiveThePermissionWithTheSpecsDefaults() {
		// no annotations, or no hint: the MCP default of a tool that is not read-only is destructive
		assertThat(McpToolCallback.permission(null, true)).isEqualTo(ToolPermission.DESTRUCTIVE);
		assertThat(McpToolCallback.permission(annotations(null, null), true)).isEqualTo(ToolPermission.DESTRUCTIVE);
		assertThat(McpToolCallback.permission(annotations(false, null), true)).isEqualTo(ToolPermission.DESTRUCTIVE);
		assertThat(McpToolCallback.permission(annotations(true, null), true)).isEqualTo(ToolPermission.READ_ONLY);
		assertThat(McpToolCallback.permission(annotations(false, false), true)).isEqualTo(ToolPermission.WRITE);
		assertThat(McpToolCallback.permission(annotations(null, false), true)).isEqualTo(ToolPermission.WRITE);
		assertThat(McpToolCallback.permission(annotations(null, true), true)).isEqualTo(ToolPermission.DESTRUCTIVE);
		// a tool that says it both reads only and destroys is taken at its worst
		assertThat(McpToolCallback.permission(annotations(true, true), true)).isEqualTo(ToolPermission.DESTRUCTIVE);
	}

	@Test
	void anUntrustedServersAnnotationsAreNotBelieved() {
		assertThat(McpToolCallback.permission(null, false)).isEqualTo(ToolPermission.DESTRUCTIVE);
		assertThat(McpToolCallback.permission(annotations(true, null), false)).isEqualTo(ToolPermission.DESTRUCTIVE);
		assertThat(McpToolCallback.permission(annotations(true, false), false)).isEqualTo(ToolPermission.DESTRUCTIVE);
		assertThat(McpToolCallback.permission(annotations(false, false), false)).isEqualTo(ToolPermission.DESTRUCTIVE);
	}

	@Test
	void aSchemaWithoutTypeIsAnObjectAndIsNormalisedAsOurOwnToolsAre() {
		McpSchema.JsonSchema input = new McpSchema.JsonSchema(null,
				Map.of("when", Map.of("$ref", "#/$defs/Date"), "note", Map.of("type", List.of("string", "null"))),
				List.of("when"), null, Map.of("Date", Map.of("type", "string", "format", "date")), null);
		ObjectNode schema = McpToolCallback.schema("s", tool(input));
		assertThat(schema.get("type").asString()).isEqualTo("object");
		assertThat(schema.has("$defs")).isFalse();
		assertThat(schema.get("properties").get("when").get("format").asString()).isEqualTo("date");
		assertThat(schema.get("properties").get("note").get("type").asString()).isEqualTo("string");
		assertThat(schema.get("required").get(0).asString()).isEqualTo("when");
	}

	@Test
	void aToolWithoutSchemaOrWithABrokenOneTakesAnyObject() {
		assertThat(McpToolCallback.schema("s", tool(null)).toString())
			.isEqualTo("{\"type\":\"object\",\"properties\":{}}");
		McpSchema.JsonSchema broken = new McpSchema.JsonSchema("object", Map.of("x", Map.of("$ref", "#/$defs/Nope")),
				null, null, null, null);
		assertThat(McpToolCallback.schema("s", tool(broken)).toString())
			.isEqualTo("{\"type\":\"object\",\"additionalProperties\":true}");
	}

	@Test
	void argumentsMustBeAJsonObject() {
		assertThat(McpToolCallback.arguments("")).isEmpty();
		assertThat(McpToolCallback.arguments("{\"a\":1}")).containsEntry("a", 1);
		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> McpToolCallback.arguments("[1]"))
			.withMessageStartingWith("the arguments must be a JSON object");
	}

	private static McpSchema.ToolAnnotations annotations(Boolean readOnly, Boolean destructive) {
		return new McpSchema.ToolAnnotations(null, readOnly, destructive, null, null, null);
	}

	private static McpSchema.Tool tool(McpSchema.@Nullable JsonSchema input) {
		McpSchema.Tool.Builder builder = McpSchema.Tool.builder().name("t").description("d");
		return ((input != null) ? builder.inputSchema(input) : builder).build();
	}

}
