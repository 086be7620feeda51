package dev.agcore.autoconfigure.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelRequestException;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the resume endpoints of {@link AgentWebAutoConfiguration}, with
 * human-in-the-loop configured in properties.
 */
class AgentResumeEndpointTests {

	private static final String RESUME = "/agents/assistant/sessions/s1/resume";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("tools", MiddlewareTestTools.class)
		.withBean("scripted", ChatModel.class, AgentResumeEndpointTests::deletingModel)
		.withPropertyValues("agent.web.enabled=true",
				"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone");

	@Test
	void pausedTurnIsApprovedAndCompletes() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode paused = invoke(client, "s1");
			assertThat(paused.get("status").asString()).isEqualTo("interrupted");
			JsonNode pending = paused.get("pendingToolCalls").get(0);
			assertThat(pending.get("id").asString()).isEqualTo("call-1");
			assertThat(pending.get("name").asString()).isEqualTo("delete_file");
			assertThat(pending.get("arguments").asString()).isEqualTo("{\"path\":\"/tmp/a\"}");
			assertThat(pending.get("reason").asString()).isEqualTo("Deleting cannot be undone");
			assertThat(tools.calls()).isEmpty();
			JsonNode completed = post(client, RESUME, Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))),
					HttpStatus.OK);
			assertThat(completed.get("status").asString()).isEqualTo("completed");
			assertThat(completed.get("output").asString()).isEqualTo("Done: Deleted /tmp/a");
			assertThat(completed.has("pendingToolCalls")).isFalse();
			assertThat(tools.calls()).containsExactly("delete_file:/tmp/a");
			JsonNode messages = get(client, "/agents/assistant/sessions/s1/messages");
			assertThat(messages.valueStream().map((message) -> message.get("role").asString()))
				.containsExactly("user", "assistant", "tool", "assistant");
		}));
	}

	@Test
	void pausedTurnIsReadBackWithItsMessagesAndPendingCallsUntilItIsResumed() {
		this.contextRunner.run(withClient((client, tools) -> {
			String pendingPath = "/agents/assistant/sessions/s1/pending";
			JsonNode none = get(client, pendingPath);
			assertThat(none.get("messages").isEmpty()).isTrue();
			assertThat(none.get("pendingToolCalls").isEmpty()).isTrue();
			invoke(client, "s1");
			JsonNode paused = get(client, pendingPath);
			assertThat(paused.get("messages").valueStream().map((message) -> message.get("role").asString()))
				.containsExactly("user", "assistant");
			assertThat(paused.get("messages").get(1).get("toolCalls").get(0).get("name").asString())
				.isEqualTo("delete_file");
			JsonNode pending = paused.get("pendingToolCalls").get(0);
			assertThat(pending.get("id").asString()).isEqualTo("call-1");
			assertThat(pending.get("reason").asString()).isEqualTo("Deleting cannot be undone");
			// kept apart from the conversation until it is resumed
			assertThat(get(client, "/agents/assistant/sessions/s1/messages").isEmpty()).isTrue();
			post(client, RESUME, Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))), HttpStatus.OK);
			assertThat(get(client, pendingPath).get("pendingToolCalls").isEmpty()).isTrue();
		}));
	}

	@Test
	void editedCallRunsWithTheNewArguments() {
		this.contextRunner.run(withClient((client, tools) -> {
			invoke(client, "s1");
			JsonNode completed = post(client, RESUME, Map.of("decisions",
					Map.of("call-1", Map.of("type", "edit", "arguments", Map.of("path", "/tmp/b")))), HttpStatus.OK);
			assertThat(completed.get("output").asString()).isEqualTo("Done: Deleted /tmp/b");
			assertThat(tools.calls()).containsExactly("delete_file:/tmp/b");
			assertThat(completed.get("toolCalls").get(0).get("arguments").asString())
				.isEqualTo("{\"path\":\"/tmp/b\"}");
		}));
	}

	@Test
	void rejectedCallDoesNotRunAndTheModelIsTold() {
		this.contextRunner.run(withClient((client, tools) -> {
			invoke(client, "s1");
			JsonNode completed = post(client, RESUME,
					Map.of("decisions", Map.of("call-1", Map.of("type", "reject", "reason", "keep it"))), HttpStatus.OK);
			assertThat(completed.get("status").asString()).isEqualTo("completed");
			assertThat(completed.get("output").asString())
				.isEqualTo("Done: Error: a human rejected this call of tool 'delete_file': keep it");
			assertThat(tools.calls()).isEmpty();
		}));
	}

	@Test
	void decisionsThatDoNotMatchThePausedTurnAreConflicts() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode nothing = post(client, RESUME, Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))),
					HttpStatus.CONFLICT);
			assertThat(nothing.get("error").asString()).isEqualTo("conflict");
			assertThat(nothing.get("message").asString()).isEqualTo("Session 's1' has no turn waiting for a decision");
			invoke(client, "s1");
			JsonNode unknown = post(client, RESUME, Map.of("decisions", Map.of("call-9", Map.of("type", "approve"))),
					HttpStatus.CONFLICT);
			assertThat(unknown.get("message").asString()).isEqualTo(
					"Decisions must name exactly the pending tool calls [call-1]; missing: [call-1]; unknown: [call-9]");
			JsonNode none = post(client, RESUME, Map.of("decisions", Map.of()), HttpStatus.CONFLICT);
			assertThat(none.get("message").asString())
				.isEqualTo("Decisions must name exactly the pending tool calls [call-1]; missing: [call-1]");
			assertThat(tools.calls()).isEmpty();
		}));
	}

	@Test
	void approvedCallRunsOnceWhenTheModelFailsAfterItAndTheTurnGoesOnWithNoDecisions() {
		AtomicBoolean modelDown = new AtomicBoolean(true);
		ChatModel failingAfterTheTool = ScriptedChatModel.answering((request) -> {
			if (modelDown.get() && request.messages().get(request.messages().size() - 1) instanceof ToolResultMessage) {
				throw new ModelRequestException("scripted", 400, "bad request");
			}
			return deletingAnswer(request);
		});
		this.contextRunner.withAllowBeanDefinitionOverriding(true)
			.withBean("scripted", ChatModel.class, () -> failingAfterTheTool)
			.run(withClient((client, tools) -> {
				invoke(client, "s1");
				List<ServerSentEvent<String>> failed = events(client, RESUME + "/stream",
						Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))));
				assertThat(failed).extracting(ServerSentEvent::event).containsSubsequence("tool_result", "error");
				JsonNode again = post(client, RESUME, Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))),
						HttpStatus.CONFLICT);
				assertThat(again.get("message").asString()).contains("resume the turn with no decisions to continue");
				modelDown.set(false);
				JsonNode completed = post(client, RESUME, Map.of("decisions", Map.of()), HttpStatus.OK);
				assertThat(completed.get("status").asString()).isEqualTo("completed");
				assertThat(completed.get("output").asString()).isEqualTo("Done: Deleted /tmp/a");
				assertThat(completed.has("pendingToolCalls")).isFalse();
				assertThat(tools.calls()).containsExactly("delete_file:/tmp/a");
				JsonNode messages = get(client, "/agents/assistant/sessions/s1/messages");
				assertThat(messages.valueStream().map((message) -> message.get("role").asString()))
					.containsExactly("user", "assistant", "tool", "assistant");
			}));
	}

	@Test
	void malformedDecisionsAreBadRequestsNamingTheField() {
		this.contextRunner.run(withClient((client, tools) -> {
			invoke(client, "s1");
			assertBadRequest(post(client, RESUME, Map.of(), HttpStatus.BAD_REQUEST), "'decisions' is required");
			assertBadRequest(post(client, RESUME, Map.of("decisions", List.of()), HttpStatus.BAD_REQUEST),
					"'decisions' is required");
			assertBadRequest(post(client, RESUME, Map.of("decisions", Map.of("call-1", "approve")),
					HttpStatus.BAD_REQUEST), "'decisions.call-1' must be an object");
			assertBadRequest(post(client, RESUME, Map.of("decisions", Map.of("call-1", Map.of())),
					HttpStatus.BAD_REQUEST), "'decisions.call-1.type' is required: approve, edit or reject");
			assertBadRequest(post(client, RESUME, Map.of("decisions", Map.of("call-1", Map.of("type", "maybe"))),
					HttpStatus.BAD_REQUEST), "'decisions.call-1.type' must be approve, edit or reject (was 'maybe')");
			assertBadRequest(post(client, RESUME, Map.of("decisions", Map.of("call-1", Map.of("type", "edit"))),
					HttpStatus.BAD_REQUEST), "'decisions.call-1.arguments' is required for an edit");
			assertBadRequest(post(client, RESUME,
					Map.of("decisions", Map.of("call-1", Map.of("type", "edit", "arguments", "{\"path\":\"x\"}"))),
					HttpStatus.BAD_REQUEST), "'decisions.call-1.arguments' is required for an edit: a JSON object");
			assertBadRequest(post(client, RESUME,
					Map.of("decisions", Map.of("call-1", Map.of("type", "reject", "reason", 42))),
					HttpStatus.BAD_REQUEST), "'decisions.call-1.reason' must be a string");
			assertBadRequest(post(client, RESUME, "{\"decisions\": ", HttpStatus.BAD_REQUEST),
					"Malformed request body: expected a JSON object like {\"decisions\"");
			assertBadRequest(post(client, RESUME + "/stream", Map.of(), HttpStatus.BAD_REQUEST),
					"'decisions' is required");
			assertThat(post(client, "/agents/nope/sessions/s1/resume",
					Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))), HttpStatus.NOT_FOUND)
				.get("error")
				.asString()).isEqualTo("not_found");
			assertThat(tools.calls()).isEmpty();
		}));
	}

	@Test
	void streamEndsWithInterruptEventCarryingThePendingCallsAndResumesAsAStream() {
		this.contextRunner.run(withClient((client, tools) -> {
			List<ServerSentEvent<String>> paused = events(client, "/agents/assistant/stream",
					Map.of("sessionId", "s1", "message", "Delete /tmp/a"));
			assertThat(paused).extracting(ServerSentEvent::event).contains("tool_call").last().isEqualTo("interrupt");
			JsonNode interrupt = json(paused.get(paused.size() - 1).data());
			assertThat(interrupt.get("status").asString()).isEqualTo("interrupted");
			JsonNode pending = interrupt.get("pendingToolCalls").get(0);
			assertThat(pending.get("id").asString()).isEqualTo("call-1");
			assertThat(pending.get("name").asString()).isEqualTo("delete_file");
			assertThat(pending.get("arguments").asString()).isEqualTo("{\"path\":\"/tmp/a\"}");
			assertThat(pending.get("reason").asString()).isEqualTo("Deleting cannot be undone");
			List<ServerSentEvent<String>> resumed = events(client, RESUME + "/stream",
					Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))));
			List<String> names = resumed.stream()
				.map(ServerSentEvent::event)
				.filter((name) -> !"usage".equals(name))
				.toList();
			assertThat(names.subList(0, 2)).containsExactly("tool_call", "tool_result");
			assertThat(names).contains("text").last().isEqualTo("completed");
			assertThat(json(resumed.get(resumed.size() - 1).data()).get("output").asString())
				.isEqualTo("Done: Deleted /tmp/a");
			List<ServerSentEvent<String>> nothing = events(client, RESUME + "/stream",
					Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))));
			assertThat(nothing).singleElement().satisfies((event) -> {
				assertThat(event.event()).isEqualTo("error");
				assertThat(json(event.data()).get("message").asString())
					.isEqualTo("Session 's1' has no turn waiting for a decision");
			});
		}));
	}

	@Test
	void pausedTurnSurvivesANewApplicationContextOnTheSameStore() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		this.contextRunner.withBean(InMemoryConversationStore.class, () -> store)
			.run(withClient((client, tools) -> assertThat(invoke(client, "s1").get("status").asString())
				.isEqualTo("interrupted")));
		this.contextRunner.withBean(InMemoryConversationStore.class, () -> store)
			.run(withClient((client, tools) -> {
				JsonNode completed = post(client, RESUME,
						Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))), HttpStatus.OK);
				assertThat(completed.get("output").asString()).isEqualTo("Done: Deleted /tmp/a");
				assertThat(tools.calls()).containsExactly("delete_file:/tmp/a");
			}));
	}

	@Test
	void messagesComeFromTheAgentsOwnStore() {
		this.contextRunner.withUserConfiguration(OwnStoreAgentConfiguration.class)
			.withPropertyValues("agent.agents.assistant.middleware.human-in-the-loop.enabled=false")
			.run(withClient((client, tools) -> {
				post(client, "/agents/own/invoke", Map.of("sessionId", "s1", "message", "Delete /tmp/a"), HttpStatus.OK);
				assertThat(get(client, "/agents/own/sessions/s1/messages").size()).isEqualTo(4);
				assertThat(get(client, "/agents/assistant/sessions/s1/messages").size()).isZero();
			}));
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnStoreAgentConfiguration {

		@Bean
		Agent own(ChatModel scripted, ToolRegistry tools, ConversationStore conversationStore) {
			return Agent.builder()
				.name("own")
				.model(scripted)
				.tools(tools.all())
				.conversationStore(new InMemoryConversationStore())
				.build();
		}

	}

	/** Deletes the path in the question, then reports the tool's result. */
	static ChatModel deletingModel() {
		return ScriptedChatModel.answering(AgentResumeEndpointTests::deletingAnswer);
	}

	private static ChatResponse deletingAnswer(ChatRequest request) {
		Message last = request.messages().get(request.messages().size() - 1);
		if (last instanceof ToolResultMessage result) {
			return ScriptedChatModel.text("Done: " + result.text());
		}
		String path = ((UserMessage) last).text().replace("Delete ", "");
		return ScriptedChatModel.toolCalls(new ToolCall("call-1", "delete_file", "{\"path\":\"" + path + "\"}"));
	}

	private static JsonNode invoke(WebTestClient client, String sessionId) {
		return post(client, "/agents/assistant/invoke", Map.of("sessionId", sessionId, "message", "Delete /tmp/a"),
				HttpStatus.OK);
	}

	private static JsonNode post(WebTestClient client, String uri, Object body, HttpStatus status) {
		return json(client.post()
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	private static JsonNode get(WebTestClient client, String uri) {
		return json(client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	private static List<ServerSentEvent<String>> events(WebTestClient client, String uri, Object body) {
		return client.post()
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(Duration.ofSeconds(10));
	}

	private static void assertBadRequest(JsonNode body, String expectedMessage) {
		assertThat(body.get("error").asString()).isEqualTo("bad_request");
		assertThat(body.get("message").asString()).contains(expectedMessage);
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(
			BiConsumer<WebTestClient, MiddlewareTestTools> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
			test.accept(WebTestClient.bindToRouterFunction(router).build(), context.getBean(MiddlewareTestTools.class));
		};
	}

}
