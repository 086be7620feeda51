package dev.agcore.autoconfigure.web.agui;

import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static dev.agcore.autoconfigure.web.agui.AgUiEndpointTests.input;
import static dev.agcore.autoconfigure.web.agui.AgUiEndpointTests.run;
import static dev.agcore.autoconfigure.web.agui.AgUiEndpointTests.types;
import static dev.agcore.autoconfigure.web.agui.AgUiEndpointTests.user;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A turn paused for approval ends its run with an interrupt per pending call; the next
 * run answers them in {@code resume} and continues the turn.
 */
class AgUiInterruptTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, AgUiAutoConfiguration.class))
		.withBean("tools", MiddlewareTestTools.class)
		.withBean("scripted", ChatModel.class, AgUiInterruptTests::deletingModel)
		.withPropertyValues("agent.web.ag-ui.enabled=true", "agent.agents.assistant.model=scripted",
				"agent.untrusted-content.enabled=false",
				"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone");

	@Test
	void anInterruptedRunIsResumedByTheNextRun() {
		this.contextRunner.run((context) -> {
			WebTestClient client = AgUiEndpointTests.client(context);
			MiddlewareTestTools tools = context.getBean(MiddlewareTestTools.class);
			List<JsonNode> paused = run(client, input("t-hitl", user("Delete /tmp/a")));
			assertThat(types(paused)).containsExactly("RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS",
					"TOOL_CALL_END", "RUN_FINISHED");
			JsonNode outcome = paused.get(4).path("outcome");
			assertThat(outcome.path("type").asString()).isEqualTo("interrupt");
			JsonNode interrupt = outcome.path("interrupts").get(0);
			assertThat(interrupt.path("id").asString()).isEqualTo("call-1");
			assertThat(interrupt.path("toolCallId").asString()).isEqualTo("call-1");
			assertThat(interrupt.path("message").asString()).isEqualTo("Deleting cannot be undone");
			assertThat(tools.calls()).isEmpty();

			Map<String, Object> resume = input("t-hitl", user("Delete /tmp/a"));
			resume.put("resume", List.of(Map.of("interruptId", "call-1", "status", "resolved")));
			List<JsonNode> resumed = run(client, resume);
			assertThat(tools.calls()).containsExactly("delete_file:/tmp/a");
			assertThat(types(resumed)).startsWith("RUN_STARTED").contains("TOOL_CALL_RESULT").endsWith("RUN_FINISHED");
			assertThat(resumed.get(resumed.size() - 1).has("outcome")).isFalse();
			String text = resumed.stream()
				.filter((event) -> event.path("type").asString().equals("TEXT_MESSAGE_CONTENT"))
				.map((event) -> event.path("delta").asString())
				.reduce("", String::concat);
			assertThat(text).isEqualTo("Done: Deleted /tmp/a");
		});
	}

	@Test
	void aCancelledInterruptRejectsTheCallAndAMalformedAnswerIsABadRequest() {
		this.contextRunner.run((context) -> {
			WebTestClient client = AgUiEndpointTests.client(context);
			MiddlewareTestTools tools = context.getBean(MiddlewareTestTools.class);
			run(client, input("t-reject", user("Delete /tmp/b")));
			Map<String, Object> malformed = input("t-reject", user("Delete /tmp/b"));
			malformed.put("resume", List.of(Map.of("interruptId", "call-1", "status", "maybe")));
			client.post().uri("/agents/assistant/ag-ui").contentType(MediaType.APPLICATION_JSON).bodyValue(malformed)
				.exchange()
				.expectStatus().isBadRequest()
				.expectBody()
				.jsonPath("$.message").isEqualTo("'resume[0].status' must be resolved or cancelled");

			Map<String, Object> cancel = input("t-reject", user("Delete /tmp/b"));
			cancel.put("resume", List.of(Map.of("interruptId", "call-1", "status", "cancelled")));
			List<JsonNode> resumed = run(client, cancel);
			assertThat(types(resumed)).endsWith("RUN_FINISHED");
			assertThat(tools.calls()).isEmpty();
		});
	}

	static ChatModel deletingModel() {
		return ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			if (last instanceof ToolResultMessage result) {
				return ScriptedChatModel.text("Done: " + result.text());
			}
			String path = last.text().replace("Delete ", "");
			return ScriptedChatModel.toolCalls(new ToolCall("call-1", "delete_file", "{\"path\":\"" + path + "\"}"));
		});
	}

}
