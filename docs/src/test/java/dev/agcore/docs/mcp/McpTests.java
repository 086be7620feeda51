package dev.agcore.docs.mcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.docs.support.DocsTools;
import dev.agcore.docs.support.NpmServers;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpConnectionState;
import dev.agcore.mcp.McpServerSettings;
import dev.agcore.mcp.McpServerStatus;
import dev.agcore.mcp.McpTransportSettings;
import dev.agcore.mcp.server.McpServerTools;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.permission.PermissionDecision;
import io.modelcontextprotocol.server.McpAsyncServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.ai.mcp.server.webflux.transport.WebFluxStreamableServerTransportProvider;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snippets of docs/mcp.md, against the pinned server-filesystem and server-everything
 * of {@code .ci/npm} ({@link NpmServers}: skipped without Node.js, a failure on CI).
 */
class McpTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String INITIALIZE = """
			{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
			 "capabilities": {}, "clientInfo": {"name": "docs", "version": "1.0"}}}""";

	@TempDir
	Path srv;

	@Test
	void aStdioServerIsRequiredAtStartupWithItsEnvironment() throws IOException {
		String notes = notes();
		filesystem(SnippetContexts.yaml("mcp/stdio.yml"), Map.of("FILES_TOKEN", "token-from-the-environment"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpClientRegistry registry = context.getBean(McpClientRegistry.class);
				assertThat(registry.statuses()).singleElement().satisfies((status) -> {
					assertThat(status.transport()).isEqualTo("stdio");
					assertThat(status.required()).isTrue();
					assertThat(status.state()).isEqualTo(McpConnectionState.CONNECTED);
				});
				assertThat(registry.connection("filesystem").orElseThrow().settings().transport())
					.isInstanceOfSatisfying(McpTransportSettings.Stdio.class, (stdio) -> assertThat(stdio.env())
						.containsOnly(Map.entry("LOG_LEVEL", "info"), Map.entry("API_TOKEN", "token-from-the-environment")));
				assertThat(registry.tools()).extracting((tool) -> tool.spec().name())
					.contains("filesystem__read_text_file", "filesystem__list_directory");
				assertThat(notes).isNotEmpty();
			});
	}

	@Test
	void aStreamableHttpServerBindsWithItsHeadersAndTimeouts() {
		SnippetContexts.yaml("mcp/streamable-http.yml")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("token", Map.of("GITHUB_TOKEN", "ghp-docs"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpClientRegistry registry = context.getBean(McpClientRegistry.class);
				McpServerSettings settings = registry.connection("github").orElseThrow().settings();
				assertThat(settings.required()).isFalse();
				assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
				assertThat(settings.transport()).isInstanceOfSatisfying(McpTransportSettings.StreamableHttp.class,
						(http) -> {
							assertThat(http.url()).hasHost("mcp.example.com");
							assertThat(http.endpoint()).isEqualTo("/mcp");
							assertThat(http.headers()).containsEntry("Authorization", "Bearer ghp-docs");
							assertThat(http.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
						});
				// an optional server that cannot be reached does not hold the application up
				assertThat(registry.statuses()).singleElement()
					.extracting(McpServerStatus::state)
					.isNotEqualTo(McpConnectionState.CONNECTED);
			});
	}

	@Test
	void aLegacySseServerBindsItsEndpoint() {
		SnippetContexts.yaml("mcp/sse.yml").run((context) -> {
			assertThat(context).hasNotFailed();
			McpClientRegistry registry = context.getBean(McpClientRegistry.class);
			assertThat(registry.connection("legacy").orElseThrow().settings().transport())
				.isInstanceOfSatisfying(McpTransportSettings.Sse.class, (sse) -> {
					assertThat(sse.url()).hasHost("localhost").hasPort(3001);
					assertThat(sse.endpoint()).isEqualTo("/sse");
				});
			assertThat(registry.statuses()).singleElement().satisfies((status) -> {
				assertThat(status.transport()).isEqualTo("sse");
				assertThat(status.required()).isFalse();
			});
		});
	}

	@Test
	void anAgentGetsTheServersToolsInItsScopeAndCallsThem() throws IOException {
		Path notes = this.srv.resolve("shared/notes.md");
		notes();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> answered(request) ? text("done")
				: toolCalls(new ToolCall("c1", "filesystem__read_text_file", "{\"path\":\"" + notes + "\"}")));
		filesystem(SnippetContexts.yaml("mcp/scopes.yml", model).withUserConfiguration(DocsTools.class), Map.of())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Agent librarian = context.getBean(AgentRegistry.class).get("librarian");
				assertThat(names(librarian)).contains("filesystem__read_text_file", "filesystem__read_multiple_files",
						"filesystem__list_directory", "get_weather")
					.doesNotContain("filesystem__write_file", "filesystem__directory_tree")
					.allMatch((name) -> name.startsWith("filesystem__read_") || name.equals("filesystem__list_directory")
							|| name.startsWith("github__") || name.equals("get_weather"));
				AgentResult result = librarian.call("s1", "What do the notes say?");
				assertThat(result.toolExecutions()).singleElement()
					.satisfies((execution) -> assertThat(execution.result()).contains("Meeting at noon"));
			});
	}

	@Test
	void destructiveToolsOfServersAreDeniedAndOthersWaitForApproval() throws IOException {
		Path written = this.srv.resolve("shared/written.md");
		Path created = this.srv.resolve("shared/drafts");
		notes();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			if (answered(request)) {
				return text("done");
			}
			String asked = ((UserMessage) request.messages().get(request.messages().size() - 1))
				.text();
			return asked.startsWith("Write") ? toolCalls(new ToolCall("c1", "filesystem__write_file",
					"{\"path\":\"" + written + "\",\"content\":\"overwritten\"}"))
					: toolCalls(new ToolCall("c2", "filesystem__create_directory", "{\"path\":\"" + created + "\"}"));
		});
		filesystem(SnippetContexts.yaml("mcp/permissions.yml", model), Map.of()).run((context) -> {
			assertThat(context).hasNotFailed();
			Agent librarian = context.getBean(AgentRegistry.class).get("librarian");
			AgentResult denied = librarian.call("s1", "Write the notes");
			assertThat(denied.toolExecutions()).singleElement()
				.satisfies((execution) -> assertThat(execution.result()).contains("denied"));
			assertThat(written).doesNotExist();
			AgentResult waiting = librarian.call("s2", "Make a drafts folder");
			assertThat(waiting.status()).isEqualTo(AgentResult.Status.INTERRUPTED);
			assertThat(waiting.pendingToolCalls()).singleElement()
				.satisfies((call) -> assertThat(call.name()).isEqualTo("filesystem__create_directory"));
			assertThat(created).doesNotExist();
		});
	}

	@Test
	void aServersPromptIsTheAgentsSystemPrompt() {
		String everything = NpmServers.everything();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("reviewed"));
		SnippetContexts.yaml("mcp/prompt.yml", model)
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("installed server",
						Map.of("agent.mcp.servers.everything.command", everything))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(AgentRegistry.class).get("reviewer").call("s1", "Review this");
				assertThat(model.requests().get(0).messages().get(0)).isInstanceOfSatisfying(SystemMessage.class,
						(system) -> assertThat(system.text()).isEqualTo("This is a simple prompt without arguments."));
			});
	}

	@Test
	void aRegistryBuiltInCodeGivesAnAgentTheToolsOfItsScope() throws IOException {
		Path notes = this.srv.resolve("shared/notes.md");
		notes();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> answered(request) ? text("done")
				: toolCalls(new ToolCall("c1", "filesystem__read_text_file", "{\"path\":\"" + notes + "\"}")));
		McpClients clients = new McpClients();
		// the pinned server's own executable instead of npx, which would fetch the package;
		// it skips the arguments that are meant for npx, which name no directory
		try (McpClientRegistry mcp = clients.filesystem(NpmServers.filesystem(), this.srv)) {
			Agent librarian = clients.librarian(model, mcp);
			assertThat(names(librarian)).contains("filesystem__read_text_file")
				.allMatch((name) -> name.startsWith("filesystem__read_"));
			AgentResult result = librarian.call("s1", "What do the notes say?");
			assertThat(result.toolExecutions()).singleElement()
				.satisfies((execution) -> assertThat(execution.result()).contains("Meeting at noon"));
		}
	}

	@Test
	void aServersResourcesAndPromptsAreRead() {
		McpClientRegistry registry = McpClientRegistry.builder()
			.server(McpServerSettings.of("everything",
					new McpTransportSettings.Stdio(NpmServers.everything(), List.of("stdio"), Map.of(), null)))
			.build();
		try (registry) {
			registry.start().block(TIMEOUT);
			McpResources.Read read = McpResources.read(registry);
			assertThat(read.resources().block(TIMEOUT)).extracting((resource) -> resource.uri())
				.contains("demo://resource/static/document/features.md");
			assertThat(read.features().block(TIMEOUT)).singleElement()
				.satisfies((part) -> assertThat(part.text()).isNotBlank());
			assertThat(read.prompts().block(TIMEOUT)).extracting((prompt) -> prompt.name())
				.contains("simple-prompt", "args-prompt");
			assertThat(read.prompt().block(TIMEOUT).messages()).anySatisfy((message) -> assertThat(message.text())
				.contains("Lisbon"));
			assertThat(read.context().block(TIMEOUT)).contains("[resource demo://resource/static/document/features.md]",
					"[resource demo://resource/static/document/startup.md]");
		}
	}

	@Test
	void theApplicationsOwnServerOffersWhatItNames() {
		ChatModel openai = ScriptedChatModel.answering((request) -> text("Order 42 ships tomorrow."));
		SnippetContexts.yaml("mcp/server.yml")
			.withUserConfiguration(DocsTools.class, ShopTools.class)
			.withBean("openai", ChatModel.class, () -> openai)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				// the entries' order; a group's tools in any
				assertThat(context.getBean(McpServerTools.class).names()).startsWith("get_weather")
					.endsWith("assistant")
					.containsExactlyInAnyOrder("get_weather", "list_coffees", "coffee_price", "assistant");
				McpAsyncServer server = context.getBean(McpAsyncServer.class);
				assertThat(server.getServerInfo().name()).isEqualTo("shop-tools");
				assertThat(server.getServerInfo().version()).isEqualTo("1.4.0");
				WebTestClient client = WebTestClient
					.bindToRouterFunction(context.getBean("mcpServerRouterFunction", RouterFunction.class))
					.build();
				initialize(client, "https://admin.example.com").expectStatus().isOk();
				initialize(client, "http://localhost:5173").expectStatus().isOk();
				initialize(client, "https://evil.example.com").expectStatus().isEqualTo(HttpStatus.FORBIDDEN);
			});
	}

	@Test
	void theServerToolsServeAnSdkServer() {
		ToolCallback weather = MethodTools.from(new DocsTools()).stream()
			.filter((tool) -> tool.spec().name().equals("get_weather"))
			.findFirst()
			.orElseThrow();
		Agent assistant = Agent.builder()
			.name("assistant")
			.model(ScriptedChatModel.answering((request) -> text("ok")))
			.build();
		McpAsyncServer server = ServerTools.server(weather, assistant,
				(agent, tool, call) -> PermissionDecision.deny("not over MCP"),
				WebFluxStreamableServerTransportProvider.builder().build());
		try {
			assertThat(server.getServerInfo().name()).isEqualTo("shop-tools");
			assertThat(server.getServerCapabilities().tools()).isNotNull();
		}
		finally {
			server.closeGracefully().block(TIMEOUT);
		}
	}

	/** The snippet's server, with the pinned executable and a temporary folder for the reader's. */
	private ReactiveWebApplicationContextRunner filesystem(ReactiveWebApplicationContextRunner runner,
			Map<String, Object> more) {
		String command = NpmServers.filesystem();
		Map<String, Object> overrides = new HashMap<>(more);
		// npx would fetch the package; the installed executable skips the arguments meant
		// for npx (they name no directory) and serves "shared" of the working directory
		overrides.put("agent.mcp.servers.filesystem.command", command);
		overrides.put("agent.mcp.servers.filesystem.working-directory", this.srv.toString());
		return runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("installed server", overrides)));
	}

	private String notes() throws IOException {
		Path shared = Files.createDirectories(this.srv.resolve("shared"));
		return Files.writeString(shared.resolve("notes.md"), "Meeting at noon.").toString();
	}

	private static boolean answered(ChatRequest request) {
		return request.messages().stream().anyMatch(ToolResultMessage.class::isInstance);
	}

	private static List<String> names(Agent agent) {
		return agent.toolCallbacks().stream().map((tool) -> tool.spec().name()).toList();
	}

	private static WebTestClient.ResponseSpec initialize(WebTestClient client, String origin) {
		return client.post()
			.uri("/mcp")
			.header("Origin", origin)
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM)
			.bodyValue(INITIALIZE)
			.exchange();
	}

}
