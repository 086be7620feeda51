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
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.codec.ServerSentEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for an agent with {@code plan.enabled} on the stream endpoint: plan and step
 * events arrive as server-sent events.
 */
class PlanStreamEndpointTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
		List<Message> messages = request.messages();
		if (messages.get(0).text().startsWith("You plan work")) {
			return ScriptedChatModel.text("{\"steps\":[{\"description\":\"Look it up\"},{\"description\":\"Answer\"}]}");
		}
		String step = messages.get(messages.size() - 1).text();
		return ScriptedChatModel.text("did: " + step.substring(step.lastIndexOf('\n') + 1));
	});

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model)
		.withPropertyValues("agent.web.enabled=true", "agent.agents.helper.model=scripted",
				"agent.agents.helper.plan.enabled=true");

	@Test
	void planAndStepEventsAreStreamed() {
		this.contextRunner.run((context) -> {
			List<ServerSentEvent<String>> events = RunRoutes.stream(context, "/agents/helper/stream",
					Map.of("sessionId", "s1", "message", "Capital of France?"));

			assertThat(events).isNotNull();
			List<String> names = events.stream()
				.map(ServerSentEvent::event)
				.filter((name) -> name.startsWith("plan_") || name.startsWith("step_") || name.equals("completed"))
				.toList();
			assertThat(names).containsExactly("plan_created", "step_started", "step_completed", "step_started",
					"step_completed", "completed");
			JsonNode created = data(events, "plan_created");
			assertThat(created.get("stepIndex").isNull()).isTrue();
			assertThat(created.get("plan").get("goal").asString()).isEqualTo("Capital of France?");
			assertThat(created.get("plan").get("steps").get(1).get("description").asString()).isEqualTo("Answer");
			assertThat(created.get("plan").get("steps").get(1).get("status").asString()).isEqualTo("pending");
			JsonNode completedStep = data(events, "step_completed");
			assertThat(completedStep.get("stepIndex").asInt()).isZero();
			assertThat(completedStep.get("plan").get("steps").get(0).get("result").asString())
				.isEqualTo("did: Step 1: Look it up");
			JsonNode completed = AgentJson.mapper().readTree(events.get(events.size() - 1).data());
			assertThat(completed.get("output").asString()).isEqualTo("did: Step 2: Answer");
		});
	}

	private static JsonNode data(List<ServerSentEvent<String>> events, String name) {
		return AgentJson.mapper()
			.readTree(events.stream().filter((event) -> name.equals(event.event())).findFirst().orElseThrow().data());
	}

}
