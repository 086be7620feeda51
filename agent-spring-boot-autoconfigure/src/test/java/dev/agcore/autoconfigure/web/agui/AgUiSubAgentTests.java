package dev.agcore.autoconfigure.web.agui;

import java.util.List;
import java.util.function.Function;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static dev.agcore.autoconfigure.web.agui.AgUiEndpointTests.input;
import static dev.agcore.autoconfigure.web.agui.AgUiEndpointTests.types;
import static dev.agcore.autoconfigure.web.agui.AgUiEndpointTests.user;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A configured agent's sub-agent over the AG-UI route: its run is framed by
 * {@code SUBAGENT_STARTED} and its end inside the parent's tool call, its events carry its
 * {@code subagentRunId}, and its failure is reported with a code, never a class name.
 */
class AgUiSubAgentTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgUiAutoConfiguration.class))
		.withPropertyValues("agent.web.ag-ui.enabled=true", "agent.web.base-path=/agents",
				"agent.agents.lead.model=scripted", "agent.agents.lead.system-prompt=You lead.",
				"agent.agents.lead.agents=researcher", "agent.agents.researcher.model=scripted",
				"agent.agents.researcher.system-prompt=You research.");

	@Test
	void aSubAgentsRunIsFramedInsideItsToolCall() {
		this.contextRunner.withBean("scripted", ScriptedChatModel.class, () -> model((request) -> ScriptedChatModel.text("Paris")))
			.run((context) -> {
				List<JsonNode> events = run(context);
				List<String> types = types(events);
				int started = types.indexOf("SUBAGENT_STARTED");
				int finished = types.indexOf("SUBAGENT_FINISHED");
				assertThat(types.indexOf("TOOL_CALL_END")).isLessThan(started);
				assertThat(finished).isGreaterThan(started).isLessThan(types.indexOf("TOOL_CALL_RESULT"));
				JsonNode start = events.get(started);
				String subagentRunId = start.path("subagentRunId").asString();
				assertThat(start.path("name").asString()).isEqualTo("researcher");
				assertThat(start.path("parentToolCallId").asString()).isEqualTo("c1");
				assertThat(events.subList(started + 1, finished)).isNotEmpty()
					.allSatisfy((event) -> assertThat(event.path("subagentRunId").asString()).isEqualTo(subagentRunId));
				assertThat(events.get(finished).path("subagentRunId").asString()).isEqualTo(subagentRunId);
				assertThat(types).last().isEqualTo("RUN_FINISHED");
			});
	}

	@Test
	void aSubAgentsFailureHasACodeAndNoClassName() {
		this.contextRunner.withBean("scripted", ScriptedChatModel.class, () -> model((request) -> {
			throw new IllegalStateException("secret detail");
		})).run((context) -> {
			List<JsonNode> events = run(context);
			JsonNode error = events.stream()
				.filter((event) -> event.path("type").asString().equals("SUBAGENT_ERROR"))
				.findFirst()
				.orElseThrow();
			assertThat(error.path("code").asString()).isEqualTo("internal_error");
			assertThat(error.path("message").asString())
				.isEqualTo("The agent failed unexpectedly; the server log has the details");
			// (the tool result, which the model is sent, is the runtime's own text, as on every route)
		});
	}

	private static List<JsonNode> run(ApplicationContext context) {
		return AgUiEndpointTests.run(
				WebTestClient.bindToRouterFunction(context.getBean("agentAgUiRouterFunction", RouterFunction.class))
					.build(),
				"/agents/lead/ag-ui", input("t-lead", user("Where is the Eiffel tower?")));
	}

	// the lead asks its researcher, then answers with what it found; the researcher answers as told
	private static ScriptedChatModel model(Function<ChatRequest, ChatResponse> researcher) {
		return ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			if (messages.get(0).text().equals("You research.")) {
				return researcher.apply(request);
			}
			Message last = messages.get(messages.size() - 1);
			if (last instanceof ToolResultMessage result) {
				return ScriptedChatModel.text(result.text());
			}
			return ScriptedChatModel.toolCalls(new ToolCall("c1", "researcher", "{\"task\":\"capital of France?\"}"));
		});
	}

}
