package dev.agcore.autoconfigure.mcp.server;

import java.time.Duration;
import java.util.Map;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.mcp.server.McpServerTools;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpServerAutoConfiguration}: which beans it creates from
 * {@code agent.mcp.server.*}, when it backs off, and the mistakes that fail startup.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpServerAutoConfigurationTests {

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
			AgentAutoConfiguration.class, McpServerAutoConfiguration.class, McpServerUnavailableAutoConfiguration.class);

	private static final String INITIALIZE = """
			{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
			 "capabilities": {}, "clientInfo": {"name": "test", "version": "1.0"}}}""";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
		.withBean("weatherTools", WeatherTools.class)
		.withPropertyValues("agent.agents.assistant.model=scripted", "agent.agents.researcher.model=scripted",
				"agent.mcp.server.enabled=true");

	@Test
	void offersTheToolsAndAgentsItIsToldToInTheirOrder() {
		this.contextRunner
			.withPropertyValues("agent.mcp.server.tools=get_forecast,get_*", "agent.mcp.server.agents=researcher")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpServerTools.class).names()).containsExactly("get_forecast",
						"get_weather", "researcher");
				assertThat(context).hasSingleBean(McpAsyncServer.class)
					.hasBean(McpServerAutoConfiguration.ROUTER_FUNCTION_BEAN_NAME);
			});
	}

	@Test
	void offersNothingItIsNotToldTo() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant")
			.run((context) -> assertThat(context.getBean(McpServerTools.class).names()).containsExactly("assistant"));
	}

	@Test
	void serverIsNamedAfterTheApplicationUnlessNamed() {
		this.contextRunner
			.withPropertyValues("agent.mcp.server.agents=assistant", "spring.application.name=shop",
					"spring.application.version=2.1.0")
			.run((context) -> assertThat(context.getBean(McpAsyncServer.class).getServerInfo())
				.isEqualTo(new McpSchema.Implementation("shop", "2.1.0")));
		this.contextRunner
			.withPropertyValues("agent.mcp.server.agents=assistant", "agent.mcp.server.name=shop-tools",
					"agent.mcp.server.version=3")
			.run((context) -> assertThat(context.getBean(McpAsyncServer.class).getServerInfo())
				.isEqualTo(new McpSchema.Implementation("shop-tools", "3")));
	}

	@Test
	void offersToolsButNoResourcesPromptsOrCompletions() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant")
			.run((context) -> {
				McpSchema.ServerCapabilities capabilities = context.getBean(McpAsyncServer.class)
					.getServerCapabilities();
				assertThat(capabilities.tools()).isEqualTo(new McpSchema.ServerCapabilities.ToolCapabilities(false));
				assertThat(capabilities.resources()).isNull();
				assertThat(capabilities.prompts()).isNull();
				assertThat(capabilities.completions()).isNull();
			});
	}

	@Test
	void toolPermissionPolicyBeansDecideOnCallsOverMcp() {
		this.contextRunner.withPropertyValues("agent.mcp.server.tools=get_weather")
			.withBean(ToolPermissionPolicy.class,
					() -> (agentName, tool, call) -> PermissionDecision.deny(agentName + " may not"))
			.run((context) -> {
				AsyncToolSpecification weather = context.getBean(McpServerTools.class).specifications().get(0);
				McpSchema.CallToolResult result = weather.callHandler()
					.apply(exchange(), new McpSchema.CallToolRequest("get_weather", Map.of("city", "Oslo")))
					.block(Duration.ofSeconds(10));
				assertThat(result.isError()).isTrue();
				assertThat(((McpSchema.TextContent) result.content().get(0)).text())
					.isEqualTo("Tool 'get_weather' was denied: mcp may not");
				assertThat(context.getBean(WeatherTools.class).calls()).isZero();
			});
	}

	@Test
	void endpointAnswersAtItsPathAndRefusesPagesOfOtherOrigins() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant", "agent.mcp.server.endpoint=/tools/mcp/")
			.run((context) -> {
				WebTestClient client = WebTestClient
					.bindToRouterFunction(
							context.getBean(McpServerAutoConfiguration.ROUTER_FUNCTION_BEAN_NAME, RouterFunction.class))
					.build();
				initialize(client, "/tools/mcp", "http://evil.example.com").expectStatus()
					.isEqualTo(HttpStatus.FORBIDDEN);
				initialize(client, "/tools/mcp", "http://localhost:6274").expectStatus()
					.isOk()
					.expectHeader()
					.exists("Mcp-Session-Id");
			});
	}

	@Test
	void anyOriginIsAllowedWhenTold() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant", "agent.mcp.server.allowed-origins=*")
			.run((context) -> initialize(WebTestClient
				.bindToRouterFunction(
						context.getBean(McpServerAutoConfiguration.ROUTER_FUNCTION_BEAN_NAME, RouterFunction.class))
				.build(), "/mcp", "http://evil.example.com")
				.expectStatus()
				.isOk());
	}

	@Test
	void isOffByDefault() {
		this.contextRunner.withPropertyValues("agent.mcp.server.enabled=false", "agent.mcp.server.agents=assistant")
			.run((context) -> assertThat(context).doesNotHaveBean(McpServerTools.class)
				.doesNotHaveBean(McpAsyncServer.class));
	}

	@Test
	void needsAReactiveWebApplicationAndSaysSo(CapturedOutput output) {
		new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.model=scripted", "agent.mcp.server.enabled=true",
					"agent.mcp.server.agents=assistant")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(McpAsyncServer.class);
				assertThat(output).contains(McpServerUnavailableAutoConfiguration.WARNING)
					.contains("not a reactive web application");
			});
	}

	@Test
	void needsTheSdkAndSaysSo(CapturedOutput output) {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant")
			.withClassLoader(new FilteredClassLoader(McpAsyncServer.class))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(McpServerTools.class);
				assertThat(output).contains(McpServerUnavailableAutoConfiguration.WARNING)
					.contains("Missing: [io.modelcontextprotocol.server.McpAsyncServer]");
			});
	}

	@Test
	void needsItsWebFluxTransport() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant")
			.withClassLoader(new FilteredClassLoader(
					"org.springframework.ai.mcp.server.webflux.transport.WebFluxStreamableServerTransportProvider"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(McpServerTools.class));
	}

	@Test
	void unknownAgentFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant,reseacher")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.mcp.server.agents: unknown agent 'reseacher'; known agents: [assistant, researcher]"));
	}

	@Test
	void toolEntryMatchingNothingFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.mcp.server.tools=get_weather,notes_*")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.mcp.server.tools: 'notes_*' matches no tool; known tools: [get_forecast, get_weather]"));
	}

	@Test
	void nothingToOfferFailsStartup() {
		this.contextRunner.run((context) -> assertThat(context).getFailure()
			.rootCause()
			.hasMessage("agent.mcp.server.enabled is true, but neither agent.mcp.server.tools nor "
					+ "agent.mcp.server.agents names anything to offer"));
	}

	@Test
	void toolAndAgentOfOneNameFailStartup() {
		this.contextRunner.withBean("researcherTool", ResearcherTool.class)
			.withPropertyValues("agent.mcp.server.tools=researcher", "agent.mcp.server.agents=researcher")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("The tool 'researcher' of agent.mcp.server.tools and the agent 'researcher' of "
						+ "agent.mcp.server.agents would both be the MCP tool 'researcher'"));
	}

	@Test
	void endpointThatIsNoPathFailsStartup() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant", "agent.mcp.server.endpoint=mcp")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.mcp.server.endpoint must be a path such as /mcp (was 'mcp')"));
	}

	@Test
	void nonPositiveToolTimeoutFailsStartup() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant", "agent.mcp.server.tool-timeout=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.mcp.server.tool-timeout must be positive (was PT0S)"));
	}

	@Test
	void misspelledKeyFailsStartup() {
		this.contextRunner.withPropertyValues("agent.mcp.server.agents=assistant", "agent.mcp.server.tool=get_weather")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("[agent.mcp.server.tool]")
				.hasMessageContaining("left unbound"));
	}

	private static WebTestClient.ResponseSpec initialize(WebTestClient client, String path, String origin) {
		return client.post()
			.uri(path)
			.header("Origin", origin)
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM)
			.bodyValue(INITIALIZE)
			.exchange();
	}

	static class ResearcherTool {

		@Tool(name = "researcher", description = "Looks things up", secrets = {})
		String research(@ToolParam(description = "What to look up") String query) {
			return "found " + query;
		}

	}

	private static McpAsyncServerExchange exchange() {
		return new McpAsyncServerExchange("s-1", null, new McpSchema.ClientCapabilities(null, null, null, null),
				new McpSchema.Implementation("test", "1.0"), McpTransportContext.EMPTY);
	}

}
