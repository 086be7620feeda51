package dev.agcore.autoconfigure.mcp;

import java.time.Duration;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpConnectionState;
import dev.agcore.mcp.McpServerSettings;
import dev.agcore.mcp.McpTransportSettings;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import io.modelcontextprotocol.client.McpAsyncClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpClientAutoConfiguration}: which beans exist, how properties map,
 * and what fails startup. No server is started here; see
 * {@link McpClientIntegrationTests} for those.
 */
class McpClientAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, McpClientAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, ScriptedChatModel::replaying);

	@Test
	void withoutServersNothingMcpIsCreated() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(McpClientRegistry.class)
			.doesNotHaveBean(AgentToolSource.class));
	}

	@Test
	void withoutTheSdkNothingMcpIsCreatedAndAgentsStillStart() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(McpAsyncClient.class))
			.withPropertyValues("agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=npx")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(McpClientRegistry.class)
				.doesNotHaveBean(McpClientLifecycle.class)
				.hasSingleBean(Agent.class));
	}

	@Test
	void propertiesBecomeServerSettings() {
		this.contextRunner
			.withPropertyValues("agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such/server",
					"agent.mcp.servers.fs.args=--root,/data", "agent.mcp.servers.fs.env.LOG_LEVEL=debug",
					"agent.mcp.servers.fs.working-directory=/tmp", "agent.mcp.servers.fs.required=false",
					"agent.mcp.servers.fs.request-timeout=5s", "agent.mcp.servers.fs.reconnect.initial-backoff=2s",
					"agent.mcp.servers.fs.reconnect.max-backoff=1m", "agent.mcp.servers.web.transport=streamable-http",
					"agent.mcp.servers.web.url=http://localhost:1/api/mcp",
					"agent.mcp.servers.web.headers.Authorization=Bearer ${MCP_TEST_TOKEN:token}",
					"agent.mcp.servers.web.connect-timeout=3s", "agent.mcp.servers.old.transport=sse",
					"agent.mcp.servers.old.url=http://localhost:1")
			.run((context) -> {
				McpClientRegistry registry = context.getBean(McpClientRegistry.class);
				McpServerSettings fs = registry.connection("fs").orElseThrow().settings();
				assertThat(fs.transport()).isInstanceOfSatisfying(McpTransportSettings.Stdio.class, (stdio) -> {
					assertThat(stdio.command()).isEqualTo("/no/such/server");
					assertThat(stdio.args()).containsExactly("--root", "/data");
					assertThat(stdio.env()).containsEntry("LOG_LEVEL", "debug");
					assertThat(stdio.workingDirectory()).hasToString("/tmp");
				});
				assertThat(fs.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
				assertThat(fs.initialBackoff()).isEqualTo(Duration.ofSeconds(2));
				assertThat(fs.maxBackoff()).isEqualTo(Duration.ofMinutes(1));
				assertThat(registry.connection("web").orElseThrow().settings().transport())
					.isInstanceOfSatisfying(McpTransportSettings.StreamableHttp.class, (http) -> {
						assertThat(http.url()).hasToString("http://localhost:1");
						assertThat(http.endpoint()).isEqualTo("/api/mcp");
						assertThat(http.headers()).containsEntry("Authorization", "Bearer token");
						assertThat(http.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
					});
				assertThat(registry.connection("old").orElseThrow().settings().transport())
					.isInstanceOfSatisfying(McpTransportSettings.Sse.class,
							(sse) -> assertThat(sse.endpoint()).isEqualTo("/sse"));
				assertThat(context.getBean(AgentToolSource.class).servers()).containsExactlyInAnyOrder("fs", "web",
						"old");
			});
	}

	@Test
	void anOptionalServerThatCannotStartDoesNotFailStartup() {
		this.contextRunner
			.withPropertyValues("agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such/server")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpClientRegistry registry = context.getBean(McpClientRegistry.class);
				long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
				while (registry.statuses().get(0).state() != McpConnectionState.FAILED
						&& System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				assertThat(registry.statuses()).singleElement().satisfies((status) -> {
					assertThat(status.state()).isEqualTo(McpConnectionState.FAILED);
					assertThat(status.lastError()).contains("/no/such/server");
				});
			});
	}

	@Test
	void aRequiredServerThatCannotStartFailsStartupNamingIt() {
		this.contextRunner
			.withPropertyValues("agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such/server",
					"agent.mcp.servers.fs.required=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("No such file or directory"));
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such/server",
				"agent.mcp.servers.fs.required=true" },
				"A required MCP server could not connect: MCP server 'fs' could not connect: MCP server 'fs' could not "
						+ "be started: Cannot run program \"/no/such/server\"");
	}

	@Test
	void misconfigurationFailsStartupNamingTheProperty() {
		failsWith("agent.mcp.servers.fs.command=npx", "agent.mcp.servers.fs.transport must be set");
		failsWith("agent.mcp.servers.fs.transport=websocket",
				"agent.mcp.servers.fs.transport: unknown transport 'websocket'");
		failsWith("agent.mcp.servers.fs.transport=stdio",
				"agent.mcp.servers.fs.command must be set for a stdio server");
		failsWith("agent.mcp.servers.web.transport=streamable-http",
				"agent.mcp.servers.web.url must be set for an HTTP server");
		failsWith(new String[] { "agent.mcp.servers.web.transport=streamable-http",
				"agent.mcp.servers.web.url=localhost:3001/mcp" }, "agent.mcp.servers.web.url is not a valid http(s) URL");
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=npx",
				"agent.mcp.servers.fs.url=http://localhost" }, "agent.mcp.servers.fs.url is set, but a stdio server");
		failsWith(new String[] { "agent.mcp.servers.web.transport=sse", "agent.mcp.servers.web.url=http://h/sse",
				"agent.mcp.servers.web.endpoint=sse" }, "agent.mcp.servers.web.endpoint: endpoint 'sse' must start with /");
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=npx",
				"agent.mcp.servers.fs.reconnect.initial-backoff=10s", "agent.mcp.servers.fs.reconnect.max-backoff=1s" },
				"agent.mcp.servers.fs.reconnect.max-backoff (PT1S) is shorter than");
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=npx",
				"agent.mcp.servers.fs.request-timeout=0s" }, "agent.mcp.servers.fs.request-timeout must be positive");
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=npx",
				"agent.mcp.tool-name-separator=." }, "agent.mcp.tool-name-separator: Tool name separator '.'");
		failsWith(new String[] { "agent.mcp.servers[my.server].transport=stdio",
				"agent.mcp.servers[my.server].command=npx", "agent.mcp.servers[my_server].transport=stdio",
				"agent.mcp.servers[my_server].command=npx" }, "whose tools would get the same names");
	}

	@Test
	void anUnresolvedPlaceholderFailsStartupNamingThePropertyAndTheVariable() {
		failsWith(new String[] { "agent.mcp.servers.web.transport=streamable-http",
				"agent.mcp.servers.web.url=http://localhost:1/mcp",
				"agent.mcp.servers.web.headers.Authorization=Bearer ${MCP_TEST_UNSET_TOKEN}" },
				"agent.mcp.servers.web.headers.Authorization holds the unresolved placeholder ${MCP_TEST_UNSET_TOKEN}");
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=npx",
				"agent.mcp.servers.fs.env.API_KEY=${MCP_TEST_UNSET_KEY}" },
				"agent.mcp.servers.fs.env.API_KEY holds the unresolved placeholder ${MCP_TEST_UNSET_KEY}");
	}

	@Test
	void aMisspelledKeyFailsStartupButTheOwnServersKeysAreLeftAlone() {
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.comand=npx" },
				"Unknown configuration properties: agent.mcp.servers.fs.comand");
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=npx",
				"agent.mcp.tool-name-seperator=_" }, "Unknown configuration properties: agent.mcp.tool-name-seperator");
		this.contextRunner
			.withPropertyValues("agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such/server",
					"agent.mcp.server.enabled=true", "agent.mcp.server.tools=get_weather")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anAgentScopeNamingAnUnknownServerFailsStartupNamingTheProperty() {
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such",
				"agent.agents.a.model=scripted", "agent.agents.a.tools=mcp:filesystem/*" },
				"agent.agents.a.tools: 'mcp:filesystem/*' names MCP server 'filesystem', which is not configured; "
						+ "configured servers: [fs]");
		failsWith(new String[] { "agent.agents.a.model=scripted", "agent.agents.a.tools=mcp:fs" },
				"agent.agents.a.tools: 'mcp:fs' names an MCP server, but no MCP servers are configured");
		failsWith(new String[] { "agent.agents.a.model=scripted", "agent.agents.a.system-prompt=mcp:fs/intro" },
				"agent.agents.a.system-prompt refers to the MCP prompt 'mcp:fs/intro', but no MCP servers are configured");
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such",
				"agent.agents.a.model=scripted", "agent.agents.a.system-prompt=mcp:other/intro" },
				"agent.agents.a.system-prompt refers to the prompt of MCP server 'other', which is not configured");
	}

	@Test
	void aServerGlobInAnAgentScopeMustMatchAServer() {
		failsWith(new String[] { "agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such",
				"agent.agents.a.model=scripted", "agent.agents.a.tools=mcp:git*/read" },
				"'mcp:git*/read' names MCP server 'git*', which is not configured");
		this.contextRunner
			.withPropertyValues("agent.mcp.servers.fs.transport=stdio", "agent.mcp.servers.fs.command=/no/such",
					"agent.agents.a.model=scripted", "agent.agents.a.tools=mcp:f*/read_*")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private void failsWith(String property, String message) {
		failsWith(new String[] { property }, message);
	}

	private void failsWith(String[] properties, String message) {
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (!(failure instanceof AgentConfigurationException) && failure.getCause() != null) {
				failure = failure.getCause();
			}
			assertThat(failure).isInstanceOf(AgentConfigurationException.class).hasMessageContaining(message);
		});
	}

}
