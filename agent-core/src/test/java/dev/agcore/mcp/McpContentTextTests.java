package dev.agcore.mcp;

import java.util.Base64;
import java.util.List;
import java.util.Map;

import dev.agcore.json.AgentJson;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class McpContentTextTests {

	@Test
	void joinsTextAndNotesEveryOtherKindOfContent() {
		String png = Base64.getEncoder().encodeToString(new byte[70]);
		McpSchema.CallToolResult result = new McpSchema.CallToolResult(List.of(new McpSchema.TextContent("first"),
				new McpSchema.ImageContent(null, png, "image/PNG"),
				new McpSchema.AudioContent(null, Base64.getEncoder().encodeToString(new byte[5]), "audio/wav"),
				new McpSchema.EmbeddedResource(null,
						new McpSchema.TextResourceContents("file:///notes.txt", "text/plain", "the notes")),
				new McpSchema.EmbeddedResource(null,
						new McpSchema.BlobResourceContents("file:///a.bin", "application/octet-stream",
								Base64.getEncoder().encodeToString(new byte[3]))),
				McpSchema.ResourceLink.builder().uri("file:///b.txt").name("b").description("the b file").build()),
				false, null, null);

		assertThat(McpContentText.of(result, AgentJson.mapper())).isEqualTo("""
				first
				[image image/png, 70 bytes]
				[audio audio/wav, 5 bytes]
				[resource file:///notes.txt]
				the notes
				[resource file:///a.bin application/octet-stream, 3 bytes]
				[resource link file:///b.txt "b"] the b file""");
	}

	@Test
	void structuredContentIsTheTextWhenThereIsNoOther() {
		McpSchema.CallToolResult result = new McpSchema.CallToolResult(List.of(), false,
				Map.of("temperature", 21), null);
		assertThat(McpContentText.of(result, AgentJson.mapper())).isEqualTo("{\"temperature\":21}");
	}

	@Test
	void countsTheBytesOfBase64WithAndWithoutPadding() {
		for (int length = 0; length < 8; length++) {
			String encoded = Base64.getEncoder().encodeToString(new byte[length]);
			assertThat(McpContentText.decodedLength(encoded)).isEqualTo(length);
		}
	}

	@Test
	void cutsAHugeResult() {
		String huge = "x".repeat(McpContentText.MAX_LENGTH + 10);
		McpSchema.CallToolResult result = new McpSchema.CallToolResult(List.of(new McpSchema.TextContent(huge)),
				false, null, null);
		assertThat(McpContentText.of(result, AgentJson.mapper())).startsWith("xxx")
			.endsWith("[truncated: the MCP result was " + huge.length() + " characters long]");
	}

}
