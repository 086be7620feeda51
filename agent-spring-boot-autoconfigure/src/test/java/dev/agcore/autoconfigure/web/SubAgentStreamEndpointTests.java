package dev.agcore.autoconfigure.web;

import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.codec.ServerSentEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for a configured agent's sub-agents on the stream endpoint: their events arrive
 * as {@code subagent} server-sent events between the parent's tool call and result.
 */
class SubAgentStreamEndpointTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
		List<Message> messages = request.messages();
		if (messages.get(0).text().equals("You research.")) {
			return ScriptedChatModel.text("Paris");
		}
		Message last = messages.get(messages.size() - 1);
		if (last instanceof ToolResultMessage result) {
			return ScriptedChatModel.text(result.text());
		}
		return ScriptedChatModel.toolCalls(new ToolCall("c1", "researcher", "{\"task\":\"capital of France?\"}"));
	});

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model)
		.withPropertyValues("agent.web.enabled=true", "agent.agents.lead.model=scripted",
				"agent.agents.lead.system-prompt=You lead.", "agent.agents.lead.agents=researcher",
				"agent.agents.researcher.model=scripted", "agent.agents.researcher.system-prompt=You research.");

	@Test
	void subAgentEventsAreFramedByTheParentsToolCallAndResult() {
		this.contextRunner.run((context) -> {
			List<ServerSentEvent<String>> events = RunRoutes.stream(context, "/agents/lead/stream",
					Map.of("sessionId", "s1", "message", "Where is the Eiffel tower?"));

			assertThat(events).isNotNull();
			List<String> names = events.stream().map(ServerSentEvent::event).toList();
			int call = names.indexOf("tool_call");
			int result = names.indexOf("tool_result");
			assertThat(names.subList(call + 1, result)).containsExactly("subagent", "subagent", "subagent");
			assertThat(names).containsOnlyOnce("tool_call", "tool_result").last().isEqualTo("completed");
			List<JsonNode> nested = events.subList(call + 1, result)
				.stream()
				.map((event) -> AgentJson.mapper().readTree(event.data()))
				.toList();
			assertThat(nested).allSatisfy((event) -> {
				assertThat(event.get("toolCallId").asString()).isEqualTo("c1");
				assertThat(event.get("agent").asString()).isEqualTo("researcher");
			});
			assertThat(nested).extracting((event) -> event.get("type").asString())
				.containsExactly("text", "usage", "completed");
			assertThat(nested.get(0).get("data").get("text").asString()).isEqualTo("Paris");
			assertThat(nested.get(2).get("data").get("sessionId").asString()).isEqualTo("s1/researcher/c1");
			JsonNode completed = AgentJson.mapper().readTree(events.get(events.size() - 1).data());
			assertThat(completed.get("output").asString()).isEqualTo("Paris");
			// the lead's two model calls (10 + 5, 10 + 1) and the researcher's one (10 + 1)
			assertThat(completed.get("usage").get("inputTokens").asLong()).isEqualTo(30);
			assertThat(completed.get("usage").get("outputTokens").asLong()).isEqualTo(7);
		});
	}

}
