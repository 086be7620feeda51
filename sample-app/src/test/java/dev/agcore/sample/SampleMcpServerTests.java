package dev.agcore.sample;

import java.time.Duration;
import java.util.Map;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app's MCP server at {@code /mcp}, as the README shows it, used by the MCP Java
 * SDK's own client.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SampleMcpServerTests {

	@LocalServerPort
	private int port;

	@Test
	void offersTheWeatherAndUnitToolsAndTheAssistant() {
		try (McpSyncClient client = client()) {
			client.initialize();

			assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
				.containsExactly("get_weather", "convert_units", "assistant");
			CallToolResult weather = client
				.callTool(new CallToolRequest("get_weather", Map.of("city", "Paris")));
			CallToolResult answer = client
				.callTool(new CallToolRequest("assistant", Map.of("message", "What is the weather in Paris?")));

			assertThat(text(weather)).isEqualTo("Paris: 18 °C, partly cloudy, wind 10 km/h");
			assertThat(answer.isError()).isFalse();
			assertThat(text(answer)).isEqualTo("Here is what I found: Paris: 18 °C, partly cloudy, wind 10 km/h");
		}
	}

	private McpSyncClient client() {
		return McpClient
			.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + this.port).endpoint("/mcp").build())
			.requestTimeout(Duration.ofSeconds(30))
			.build();
	}

	private static String text(CallToolResult result) {
		return ((McpSchema.TextContent) result.content().get(0)).text();
	}

}
