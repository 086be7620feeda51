package dev.agcore.autoconfigure.mcp;

import java.time.Duration;
import java.util.List;

import dev.agcore.autoconfigure.actuate.AgentHealthContribution;
import dev.agcore.autoconfigure.actuate.AgentsEndpoint;
import dev.agcore.autoconfigure.actuate.AgentsEndpointAutoConfiguration;
import dev.agcore.autoconfigure.actuate.McpHealthAutoConfiguration;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolDescriptor;
import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpConnectionState;
import dev.agcore.mcp.McpServerStatus;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration against the real server-everything over stdio: agents scoped to
 * its tools, a turn calling one, its prompt as a system prompt, health and the agents
 * endpoint.
 */
class McpClientIntegrationTests {

	private static String command;

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
		boolean answered = request.messages().stream().anyMatch(ToolResultMessage.class::isInstance);
		return answered ? text("done") : toolCalls(new ToolCall("c1", "everything__echo", "{\"message\":\"hi\"}"));
	});

	private ApplicationContextRunner contextRunner;

	@BeforeAll
	static void install() {
		command = EverythingServer.command();
	}

	@BeforeEach
	void runner() {
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
					MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, McpClientAutoConfiguration.class,
					McpHealthAutoConfiguration.class, AgentsEndpointAutoConfiguration.class))
			.withBean("scripted", ChatModel.class, () -> this.model)
			.withPropertyValues("agent.mcp.servers.everything.transport=stdio",
					"agent.mcp.servers.everything.command=" + command, "agent.mcp.servers.everything.args=stdio",
					"agent.mcp.servers.everything.required=true", "agent.mcp.servers.everything.trusted=true",
					"agent.agents.scoped.model=scripted",
					"agent.agents.scoped.tools=mcp:everything/echo,mcp:everything/get-s*",
					"agent.agents.all.model=scripted", "management.endpoints.web.exposure.include=agents");
	}

	@Test
	void anAgentGetsTheServersToolsInItsScopeAndCallsThem() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			Agent scoped = context.getBean("scoped", Agent.class);
			assertThat(names(scoped)).containsExactlyInAnyOrder("everything__echo", "everything__get-sum",
					"everything__get-structured-content");
			AgentResult result = scoped.call("s1", "echo hi");
			assertThat(result.output()).isEqualTo("done");
			assertThat(result.toolExecutions()).singleElement()
				.satisfies((execution) -> assertThat(execution.result()).isEqualTo("Echo: hi"));
			assertThat(names(context.getBean("all", Agent.class))).contains("everything__echo",
					"everything__trigger-long-running-operation", "everything__get-env");
		});
	}

	@Test
	void anUntrustedServersToolsAreDestructiveAndRunOnlyWhenARuleNamesThem() {
		this.contextRunner.withPropertyValues("agent.mcp.servers.everything.trusted=false").run((context) -> {
			assertThat(context).hasNotFailed();
			// echo says it is read-only, but the server is not trusted to say so
			AgentResult denied = context.getBean("scoped", Agent.class).call("s1", "echo hi");
			assertThat(denied.toolExecutions()).singleElement()
				.satisfies((execution) -> assertThat(execution.result()).isEqualTo("Error: tool 'everything__echo' "
						+ "was denied: tool 'everything__echo' is destructive and no rule of agent 'scoped' allows it"));
		});
		this.contextRunner
			.withPropertyValues("agent.mcp.servers.everything.trusted=false",
					"agent.agents.scoped.permissions.allow-tools=mcp:everything/echo")
			.run((context) -> {
				AgentResult allowed = context.getBean("scoped", Agent.class).call("s1", "echo hi");
				assertThat(allowed.toolExecutions()).singleElement()
					.satisfies((execution) -> assertThat(execution.result()).isEqualTo("Echo: hi"));
			});
	}

	@Test
	void aStoppedAndRestartedContextKeepsTheServersToolsAndClosingItStopsTheServer() {
		McpClientRegistry[] registry = new McpClientRegistry[1];
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			registry[0] = context.getBean(McpClientRegistry.class);
			context.stop();
			context.start();
			assertThat(registry[0].statuses()).singleElement()
				.extracting(McpServerStatus::state)
				.isEqualTo(McpConnectionState.CONNECTED);
			AgentResult result = context.getBean("scoped", Agent.class).call("s1", "echo hi");
			assertThat(result.toolExecutions()).singleElement()
				.satisfies((execution) -> assertThat(execution.result()).isEqualTo("Echo: hi"));
		});
		assertThat(registry[0].statuses()).singleElement()
			.extracting(McpServerStatus::state)
			.isEqualTo(McpConnectionState.CLOSED);
	}

	@Test
	void approvalMayNameAServersToolBeforeTheServerIsConnected() {
		this.contextRunner.withPropertyValues("agent.agents.careful.model=scripted",
				"agent.agents.careful.tools=mcp:everything/echo",
				"agent.agents.careful.middleware.human-in-the-loop.tools[0]=everything__echo")
			.run((context) -> {
				AgentResult result = context.getBean("careful", Agent.class).call("s1", "echo hi");
				assertThat(result.status()).isEqualTo(AgentResult.Status.INTERRUPTED);
				assertThat(result.pendingToolCalls()).singleElement()
					.satisfies((call) -> assertThat(call.name()).isEqualTo("everything__echo"));
			});
		this.contextRunner.withPropertyValues("agent.agents.careful.model=scripted",
				"agent.agents.careful.middleware.human-in-the-loop.tools[0]=other__echo")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("human-in-the-loop.tools: unknown tool 'other__echo'"));
	}

	@Test
	void aServersPromptIsTheSystemPromptOfAnAgentThatNamesIt() {
		this.contextRunner.withPropertyValues("agent.agents.prompted.model=scripted",
				"agent.agents.prompted.tools=", "agent.agents.prompted.system-prompt=mcp:everything/simple-prompt")
			.run((context) -> {
				context.getBean("prompted", Agent.class).call("s1", "hello");
				assertThat(this.model.requests().get(0).messages().get(0))
					.isInstanceOfSatisfying(SystemMessage.class, (system) -> assertThat(system.text())
						.isEqualTo("This is a simple prompt without arguments."));
			});
	}

	@Test
	void healthAndTheAgentsEndpointShowTheServer() {
		this.contextRunner
			.withPropertyValues("agent.mcp.servers.missing.transport=stdio",
					"agent.mcp.servers.missing.command=/no/such/server")
			.run((context) -> {
				AgentHealthContribution part = context.getBean(AgentHealthContribution.class);
				assertThat(part.name()).isEqualTo("mcp");
				CompositeReactiveHealthContributor mcp = (CompositeReactiveHealthContributor) part.contributor();
				Health everything = ((ReactiveHealthIndicator) mcp.getContributor("everything")).health()
					.block(Duration.ofSeconds(10));
				assertThat(everything.getStatus()).isEqualTo(Status.UP);
				assertThat(everything.getDetails()).containsEntry("transport", "stdio")
					.containsEntry("state", "CONNECTED")
					.containsKey("connectedSince")
					.hasEntrySatisfying("tools", (tools) -> assertThat((Integer) tools).isGreaterThan(5));
				Health missing = ((ReactiveHealthIndicator) mcp.getContributor("missing")).health()
					.block(Duration.ofSeconds(10));
				assertThat(missing.getStatus()).isIn(Status.UNKNOWN);
				AgentsEndpoint.AgentsDescriptor agents = context.getBean(AgentsEndpoint.class).agents();
				assertThat(agents.mcpServers()).containsOnlyKeys("everything", "missing");
				assertThat(agents.mcpServers().get("everything").state()).isEqualTo("CONNECTED");
				assertThat(agents.agents().get("scoped").tools()).extracting(ToolDescriptor::name)
					.contains("everything__echo");
			});
	}

	private static List<String> names(Agent agent) {
		return agent.toolCallbacks().stream().map((tool) -> tool.spec().name()).toList();
	}

}
