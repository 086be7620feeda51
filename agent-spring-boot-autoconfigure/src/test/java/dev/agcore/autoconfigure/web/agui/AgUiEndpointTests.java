package dev.agcore.autoconfigure.web.agui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AG-UI route: which messages of a {@code RunAgentInput} become the turn, errors
 * before the stream as JSON and during it as {@code RUN_ERROR}, the owners of threads,
 * the client's context, and cancellation when the client goes away.
 */
class AgUiEndpointTests {

	private static final String ROUTE = "/agents/assistant/ag-ui";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentSessionsAutoConfiguration.class, AgUiAutoConfiguration.class))
		.withPropertyValues("agent.web.ag-ui.enabled=true", "agent.agents.assistant.model=scripted",
				"agent.untrusted-content.enabled=false");

	@Test
	void anUnknownThreadGetsTheClientsHistoryAndAKnownOneOnlyItsNewMessages() {
		this.contextRunner.withBean("scripted", ScriptedChatModel.class, AgUiEndpointTests::echo).run((context) -> {
			WebTestClient client = client(context);
			List<JsonNode> events = run(client, input("t1", user("Hi, I am Ada"), assistant("Hello Ada!"),
					user("What is my name?")));
			assertThat(AgUiClientTests.collapsed(AgentJson.mapper().valueToTree(types(events)))).containsExactly(
					"RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED");
			JsonNode finished = events.get(events.size() - 1);
			assertThat(events.get(0).path("threadId").asString()).isEqualTo("t1");
			assertThat(events.get(0).path("runId").asString()).isEqualTo("run-t1");
			assertThat(finished.path("threadId").asString()).isEqualTo("t1");
			assertThat(finished.path("runId").asString()).isEqualTo("run-t1");
			assertThat(events.get(1).path("messageId").asString())
				.isEqualTo(events.get(events.size() - 2).path("messageId").asString());
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			assertThat(userTexts(model.lastRequest())).containsExactly("""
					The conversation so far, as the client sent it:

					<user>
					Hi, I am Ada
					</user>
					<assistant>
					Hello Ada!
					</assistant>

					The new message:

					What is my name?""");

			// the thread is stored now: its conversation is the agent's, the client's copy is not read
			run(client, input("t1", user("ignored"), assistant("ignored too"), user("One"), user("Two")));
			List<String> texts = userTexts(model.lastRequest());
			assertThat(texts).hasSize(2);
			assertThat(texts.get(1)).isEqualTo("One\n\nTwo");
		});
	}

	@Test
	void badInputIsAJsonErrorNamingWhatIsWrong() {
		this.contextRunner.withBean("scripted", ScriptedChatModel.class, AgUiEndpointTests::echo).run((context) -> {
			WebTestClient client = client(context);
			Map<String, Object> noThread = input("t", user("Hi"));
			noThread.remove("threadId");
			badRequest(client, noThread, "'threadId' is required and must not be blank");
			badRequest(client, input("t", user("Hi"), assistant("Hello")),
					"'messages' must end with a user message with text: the turn's input");
			badRequest(client, input("t", Map.of("id", "1", "role", "user", "content",
					List.of(Map.of("type", "image", "source", Map.of("type", "url", "value", "http://x/y.png"))))),
					"'messages[0].content[0]': only text parts are supported, not 'image'");
			badRequest(client, input("t".repeat(257), user("Hi")), "'threadId' must be at most 256 characters, was 257");
			client.post().uri(ROUTE).contentType(MediaType.APPLICATION_JSON).bodyValue("[1]").exchange()
				.expectStatus().isBadRequest()
				.expectBody().jsonPath("$.error").isEqualTo("bad_request");
			client.post().uri("/agents/nobody/ag-ui").contentType(MediaType.APPLICATION_JSON)
				.bodyValue(input("t", user("Hi")))
				.exchange()
				.expectStatus().isNotFound()
				.expectBody()
				.jsonPath("$.error").isEqualTo("not_found")
				.jsonPath("$.message").isEqualTo("No agent named 'nobody'; known agents: [assistant]");
		});
	}

	@Test
	void aFailureDuringTheRunIsARunErrorWithACodeAndNoDetails() {
		ChatModel failing = new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return Mono.error(new IllegalStateException("secret detail"));
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				return Flux.error(new IllegalStateException("secret detail"));
			}

		};
		this.contextRunner.withBean("scripted", ChatModel.class, () -> failing).run((context) -> {
			List<JsonNode> events = run(client(context), input("t-failed", user("Hi")));
			assertThat(types(events)).containsExactly("RUN_STARTED", "RUN_ERROR");
			JsonNode error = events.get(1);
			assertThat(error.path("code").asString()).isEqualTo("internal_error");
			assertThat(error.path("message").asString())
				.isEqualTo("The agent failed unexpectedly; the server log has the details");
			assertThat(error.toString()).doesNotContain("IllegalStateException", "secret");
		});
	}

	@Test
	void aThreadSomeoneElseOwnsIsAnsweredAsAnUnknownSession() {
		this.contextRunner.withBean("scripted", ScriptedChatModel.class, AgUiEndpointTests::echo).run((context) -> {
			SessionOwners.of(context.getBean(KeyValueStore.class)).claim("owned", "alice").block(Duration.ofSeconds(5));
			client(context).post().uri(ROUTE).contentType(MediaType.APPLICATION_JSON)
				.bodyValue(input("owned", user("Hi")))
				.exchange()
				.expectStatus().isNotFound()
				.expectBody()
				.jsonPath("$.error").isEqualTo("not_found")
				.jsonPath("$.message").isEqualTo("No session 'owned'");
			assertThat(context.getBean(ScriptedChatModel.class).requests()).isEmpty();
		});
	}

	@Test
	void theClientsContextIsSystemTextOnlyWhereCallersMayAddIt() {
		Map<String, Object> input = input("t-context", user("Hi"));
		input.put("context", List.of(Map.of("description", "The user's page", "value", "/orders/42")));
		this.contextRunner.withBean("scripted", ScriptedChatModel.class, AgUiEndpointTests::echo).run((context) -> {
			run(client(context), input);
			assertThat(systemText(context.getBean(ScriptedChatModel.class).lastRequest()))
				.doesNotContain("/orders/42");
		});
		this.contextRunner.withBean("scripted", ScriptedChatModel.class, AgUiEndpointTests::echo)
			.withPropertyValues("agent.web.allow-instructions=true")
			.run((context) -> {
				run(client(context), input);
				assertThat(systemText(context.getBean(ScriptedChatModel.class).lastRequest()))
					.contains("The user's page: /orders/42");
			});
	}

	@Test
	void closingTheStreamCancelsTheTurn() {
		CountDownLatch called = new CountDownLatch(1);
		CountDownLatch cancelled = new CountDownLatch(1);
		ChatModel endless = new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return Mono.never();
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				return Flux.<ChatChunk>never().doOnSubscribe((subscription) -> called.countDown())
					.doOnCancel(cancelled::countDown);
			}

		};
		this.contextRunner.withBean("scripted", ChatModel.class, () -> endless).run((context) -> {
			Flux<String> body = client(context).post()
				.uri(ROUTE)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(input("t-cancel", user("Hi")))
				.exchange()
				.expectStatus()
				.isOk()
				.returnResult(String.class)
				.getResponseBody();
			// the first event, then the client goes away
			assertThat(body.take(1).blockFirst(Duration.ofSeconds(10))).contains("RUN_STARTED");
			assertThat(called.await(10, TimeUnit.SECONDS)).as("the model was called").isTrue();
			assertThat(cancelled.await(10, TimeUnit.SECONDS)).as("the model call was cancelled").isTrue();
			// a turn is all or nothing: the cancelled one left nothing in the thread
			assertThat(context.getBean(AgentRegistry.class).find("assistant").orElseThrow().history("t-cancel")
				.block(Duration.ofSeconds(5))).isEmpty();
		});
	}

	static ScriptedChatModel echo() {
		return ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			return ScriptedChatModel.text("echo: " + messages.get(messages.size() - 1).text());
		});
	}

	static WebTestClient client(ApplicationContext context) {
		return WebTestClient.bindToRouterFunction(context.getBean("agentAgUiRouterFunction", RouterFunction.class))
			.configureClient()
			.responseTimeout(Duration.ofSeconds(30))
			.build();
	}

	static Map<String, Object> input(String threadId, Map<?, ?>... messages) {
		Map<String, Object> input = new LinkedHashMap<>();
		input.put("threadId", threadId);
		input.put("runId", "run-" + threadId);
		input.put("state", Map.of());
		input.put("messages", List.of(messages));
		input.put("tools", List.of());
		input.put("context", List.of());
		input.put("forwardedProps", Map.of());
		return input;
	}

	static Map<String, Object> user(String text) {
		return Map.of("id", "u-" + text.hashCode(), "role", "user", "content", text);
	}

	static Map<String, Object> assistant(String text) {
		return Map.of("id", "a-" + text.hashCode(), "role", "assistant", "content", text);
	}

	/** The events of a run, read as an AG-UI client reads them: the data of each server-sent event. */
	static List<JsonNode> run(WebTestClient client, Map<String, Object> input) {
		return run(client, ROUTE, input);
	}

	static List<JsonNode> run(WebTestClient client, String route, Map<String, Object> input) {
		String body = client.post()
			.uri(route)
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.bodyValue(input)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		List<JsonNode> events = new ArrayList<>();
		for (String frame : body.split("\n\n")) {
			for (String line : frame.split("\n")) {
				if (line.startsWith("data:")) {
					events.add(AgentJson.mapper().readTree(line.substring(5)));
				}
			}
		}
		return events;
	}

	static List<String> types(List<JsonNode> events) {
		return events.stream().map((event) -> event.path("type").asString()).toList();
	}

	private static void badRequest(WebTestClient client, Map<String, Object> input, String message) {
		client.post().uri(ROUTE).contentType(MediaType.APPLICATION_JSON).bodyValue(input).exchange()
			.expectStatus().isBadRequest()
			.expectBody()
			.jsonPath("$.error").isEqualTo("bad_request")
			.jsonPath("$.message").isEqualTo(message);
	}

	private static List<String> userTexts(ChatRequest request) {
		return request.messages().stream().filter(UserMessage.class::isInstance).map(Message::text).toList();
	}

	private static String systemText(ChatRequest request) {
		return request.messages()
			.stream()
			.filter(SystemMessage.class::isInstance)
			.map(Message::text)
			.reduce("", String::concat);
	}

}
