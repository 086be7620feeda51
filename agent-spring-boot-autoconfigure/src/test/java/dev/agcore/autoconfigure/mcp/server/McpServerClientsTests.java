package dev.agcore.autoconfigure.mcp.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.json.AgentJson;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP server of a running WebFlux application, driven by real MCP clients over
 * streamable HTTP: the MCP Java SDK's own client, and the official MCP client CLI
 * ({@code @modelcontextprotocol/inspector-cli}) as a separate process.
 */
class McpServerClientsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final McpTestServer server = new McpTestServer();

	@Test
	void sdkClientListsTheOfferedToolsAndTheAgentWithTheirSchemas() {
		try (McpSyncClient client = sdkClient()) {
			McpSchema.InitializeResult initialized = client.initialize();
			assertThat(initialized.serverInfo().name()).isEqualTo("mcp-test");

			List<McpSchema.Tool> tools = client.listTools().tools();

			// tools in the order agent.mcp.server.tools names them, then the agents; the methods
			// of one bean that a glob matches come in no particular order
			assertThat(tools).extracting(McpSchema.Tool::name)
				.containsExactlyInAnyOrder("get_weather", "test_simple_text", "test_error_handling",
						"test_tool_with_progress", "json_schema_2020_12_tool", "assistant")
				.startsWith("get_weather")
				.endsWith("json_schema_2020_12_tool", "assistant");
			McpSchema.Tool weather = tools.get(0);
			assertThat(weather.description()).isEqualTo("Current weather in a city");
			assertThat((List<Object>) weather.inputSchema().get("required")).containsExactly("city");
			McpSchema.Tool assistant = tools.get(tools.size() - 1);
			assertThat((Map<String, Object>) assistant.inputSchema().get("properties")).containsOnlyKeys("message", "sessionId");
		}
	}

	@Test
	void sdkClientCallsAToolAndGetsAFailureAsAnErrorResult() {
		try (McpSyncClient client = sdkClient()) {
			client.initialize();

			CallToolResult weather = client.callTool(new CallToolRequest("get_weather", Map.of("city", "Lima")));
			CallToolResult failing = client.callTool(new CallToolRequest("test_error_handling", Map.of()));

			assertThat(weather.isError()).isFalse();
			assertThat(text(weather)).isEqualTo("Sunny, 21 C in Lima");
			assertThat(failing.isError()).isTrue();
			assertThat(text(failing))
				.isEqualTo("Tool 'test_error_handling' failed: This tool intentionally returns an error for testing");
		}
	}

	@Test
	void sdkClientReceivesTheProgressAToolReports() {
		List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
		try (McpSyncClient client = McpClient.sync(transport())
			.requestTimeout(TIMEOUT)
			.progressConsumer(progress::add)
			.build()) {
			client.initialize();

			CallToolResult result = client.callTool(CallToolRequest.builder()
				.name("test_tool_with_progress")
				.arguments(Map.of())
				.progressToken("p-1")
				.build());

			assertThat(text(result)).isEqualTo("Progress reported");
			// the client hands notifications to the consumer apart from the result: the last
			// may arrive just after it (seen on a loaded machine)
			long end = System.nanoTime() + TIMEOUT.toNanos();
			while (progress.size() < 3 && System.nanoTime() < end) {
				LockSupport.parkNanos(10_000_000);
			}
			assertThat(progress).extracting(McpSchema.ProgressNotification::progress).containsExactly(0.0, 50.0, 100.0);
		}
	}

	@Test
	void sdkClientTalksToTheAgentAcrossTwoCallsOfOneConversation() {
		try (McpSyncClient client = sdkClient()) {
			client.initialize();

			CallToolResult first = client
				.callTool(new CallToolRequest("assistant", Map.of("message", "Weather?", "sessionId", "sdk-trip")));
			CallToolResult second = client
				.callTool(new CallToolRequest("assistant", Map.of("message", "And now?", "sessionId", "sdk-trip")));

			assertThat(first.isError()).isFalse();
			assertThat(text(first)).isEqualTo("The weather: Sunny, 21 C in Oslo (asked 1 times)");
			assertThat(text(second)).isEqualTo("The weather: Sunny, 21 C in Oslo (asked 2 times)");
			assertThat(second.structuredContent())
				.isEqualTo(Map.of("answer", text(second), "sessionId", "sdk-trip", "status", "completed"));
		}
	}

	@Test
	void inspectorCliListsTheToolsAndTheAgent() {
		JsonNode listed = inspector("--method", "tools/list");

		assertThat(listed.get("tools").valueStream().map((tool) -> tool.get("name").asString())).contains("get_weather",
				"assistant");
		JsonNode weather = listed.get("tools").get(0);
		assertThat(weather.get("annotations").get("destructiveHint").asBoolean()).isFalse();
		assertThat(weather.get("inputSchema").get("properties").get("city").get("type").asString()).isEqualTo("string");
	}

	@Test
	void inspectorCliCallsATool() {
		int before = server.bean(WeatherTools.class).calls();

		JsonNode result = inspector("--method", "tools/call", "--tool-name", "get_weather", "--tool-arg", "city=Quito");

		assertThat(result.get("content").get(0).get("text").asString()).isEqualTo("Sunny, 21 C in Quito");
		assertThat(result.path("isError").asBoolean(false)).isFalse();
		assertThat(server.bean(WeatherTools.class).calls()).isGreaterThan(before);
	}

	@Test
	void inspectorCliAsksTheAgent() {
		JsonNode result = inspector("--method", "tools/call", "--tool-name", "assistant", "--tool-arg",
				"message=What is the weather?", "--tool-arg", "sessionId=cli-1");

		assertThat(result.get("content").get(0).get("text").asString())
			.isEqualTo("The weather: Sunny, 21 C in Oslo (asked 1 times)");
		assertThat(result.get("structuredContent").get("sessionId").asString()).isEqualTo("cli-1");
		assertThat(result.get("structuredContent").get("status").asString()).isEqualTo("completed");
	}

	/**
	 * Run {@code mcp-inspector-cli --cli <url> --transport http <arguments>} and read the
	 * JSON it prints.
	 */
	private static JsonNode inspector(String... arguments) {
		Path packages = NpmCommands.directory();
		List<String> command = new ArrayList<>(List.of(
				packages.resolve("node_modules/.bin/mcp-inspector-cli").toString(), "--cli", server.mcpUrl(),
				"--transport", "http"));
		command.addAll(List.of(arguments));
		// inspector-cli 1.0.3 looks for ../package.json relative to the working directory
		// (to name itself to the server): run it where that is its own
		Path workingDirectory = packages.resolve("node_modules/@modelcontextprotocol/inspector-cli/build");
		NpmCommands.Result result = NpmCommands.run(command, workingDirectory, TIMEOUT);
		assertThat(result.exitCode()).as("exit code; stderr: %s", result.stderr()).isZero();
		return AgentJson.mapper().readTree(result.stdout());
	}

	private static McpSyncClient sdkClient() {
		return McpClient.sync(transport()).requestTimeout(TIMEOUT).build();
	}

	private static HttpClientStreamableHttpTransport transport() {
		return HttpClientStreamableHttpTransport.builder(server.baseUrl()).endpoint("/mcp").build();
	}

	private static String text(CallToolResult result) {
		assertThat(result.content()).hasSize(1);
		return ((McpSchema.TextContent) result.content().get(0)).text();
	}

}
