package dev.agcore.autoconfigure.web.openai;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.agcore.AgentPrincipal;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.PrincipalResolver;
import dev.agcore.budget.Budget;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.SessionInfo;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the OpenAI-compatible routes of {@link OpenAiAutoConfiguration}.
 */
class OpenAiEndpointTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentSessionsAutoConfiguration.class,
				AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class, AgentWebAutoConfiguration.class,
				OpenAiAutoConfiguration.class))
		.withBean(WeatherTools.class)
		.withPropertyValues("agent.web.openai.enabled=true", "agent.agents.assistant.model=scripted",
				"agent.agents.assistant.tools=get_weather", "agent.agents.helper.model=scripted");

	@Test
	void routesAreOffByDefault() {
		this.contextRunner.withPropertyValues("agent.web.openai.enabled=false")
			.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.builder().build())
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("agentOpenAiRouterFunction")
				.doesNotHaveBean(OpenAiProperties.class));
	}

	@Test
	void modelsListTheAgents() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.builder().build())
			.run(withClient((client) -> client.get()
				.uri("/v1/models")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.object")
				.isEqualTo("list")
				.jsonPath("$.data[*].id")
				.isEqualTo(List.of("assistant", "helper"))
				.jsonPath("$.data[0].object")
				.isEqualTo("model")
				.jsonPath("$.data[0].owned_by")
				.isEqualTo("agcore")
				.jsonPath("$.data[0].created")
				.isNumber()));
	}

	@Test
	void anAgentWithRolesIsHiddenFromACallerWithoutOne() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.builder().build())
			.withPropertyValues("agent.agents.assistant.roles=ADMIN")
			.run(withClient((client) -> {
				client.get()
					.uri("/v1/models")
					.exchange()
					.expectStatus()
					.isOk()
					.expectBody()
					.jsonPath("$.data[*].id")
					.isEqualTo(List.of("helper"));
				completions(client)
					.bodyValue(Map.of("model", "assistant", "messages",
							List.of(Map.of("role", "user", "content", "Hi"))))
					.exchange()
					.expectStatus()
					.isNotFound()
					.expectBody()
					.jsonPath("$.error.code")
					.isEqualTo("model_not_found")
					.jsonPath("$.error.message")
					.isEqualTo("No agent named 'assistant'; known agents: [helper]");
			}));
	}

	@Test
	void aTurnRunsItsToolInsideAndAnswersAChatCompletion() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenCallTool("get_weather", Map.of("city", "Lima"))
			.thenReply("It is sunny in Lima.")
			.build();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.run(withClient((client) -> completions(client)
				.bodyValue(Map.of("model", "assistant", "messages",
						List.of(Map.of("role", "system", "content", "Be brief."),
								Map.of("role", "user", "content", "Weather in Lima?"))))
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.id")
				.value((String id) -> assertThat(id).startsWith("chatcmpl-"))
				.jsonPath("$.object")
				.isEqualTo("chat.completion")
				.jsonPath("$.model")
				.isEqualTo("assistant")
				.jsonPath("$.choices[0].message.role")
				.isEqualTo("assistant")
				.jsonPath("$.choices[0].message.content")
				.isEqualTo("It is sunny in Lima.")
				.jsonPath("$.choices[0].message.tool_calls")
				.doesNotExist()
				.jsonPath("$.choices[0].finish_reason")
				.isEqualTo("stop")
				.jsonPath("$.usage.total_tokens")
				.isNumber()));
		// the tool ran inside the turn; the system message is ignored without allow-instructions
		assertThat(model.requests()).hasSize(2);
		assertThat(model.requests().get(1).messages().toString()).contains("Sunny, 21 C in Lima");
		assertThat(model.requests().get(0).messages().toString()).doesNotContain("Be brief.");
	}

	@Test
	void exposedToolCallsAreShownAndAllowedSystemMessagesReachTheTurn() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenCallTool("get_weather", Map.of("city", "Lima"))
			.thenReply("Sunny.")
			.build();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.web.openai.expose-tool-calls=true", "agent.web.allow-instructions=true")
			.run(withClient((client) -> completions(client)
				.bodyValue(Map.of("model", "assistant", "messages",
						List.of(Map.of("role", "system", "content", "Be brief."),
								Map.of("role", "user", "content", "Weather in Lima?"))))
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.choices[0].message.tool_calls[0].type")
				.isEqualTo("function")
				.jsonPath("$.choices[0].message.tool_calls[0].function.name")
				.isEqualTo("get_weather")));
		assertThat(model.requests().get(0).messages().get(0).text()).contains("Be brief.");
	}

	@Test
	void aSessionIdContinuesTheAgentsOwnConversation() {
		ScriptedChatModel model = ScriptedChatModel.builder().thenReply("Hello Ada.").thenReply("You are Ada.").build();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.run(withClient((client) -> {
				for (String message : List.of("I am Ada.", "Who am I?")) {
					client.post()
						.uri("/v1/chat/completions")
						.header("X-Session-Id", "s-1")
						.contentType(MediaType.APPLICATION_JSON)
						.bodyValue(Map.of("model", "helper", "messages",
								List.of(Map.of("role", "user", "content", "ignored earlier message"),
										Map.of("role", "assistant", "content", "ignored"),
										Map.of("role", "user", "content", message))))
						.exchange()
						.expectStatus()
						.isOk();
				}
			}));
		String second = model.requests().get(1).messages().toString();
		assertThat(second).contains("I am Ada.", "Hello Ada.", "Who am I?").doesNotContain("ignored");
	}

	@Test
	void aStatelessTurnsSessionIsDeletedAndANamedOneIsKept() {
		this.contextRunner
			.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("Hi.")))
			.withBean(PrincipalResolver.class, () -> (exchange) -> Mono.just(AgentPrincipal.of("ada")))
			.run((context) -> {
				withClient((client) -> {
					completions(client)
						.bodyValue(Map.of("model", "helper", "messages", List.of(Map.of("role", "user", "content", "Hello"))))
						.exchange()
						.expectStatus()
						.isOk();
					completions(client)
						.bodyValue(Map.of("model", "helper", "user", "kept", "stream", true, "messages",
								List.of(Map.of("role", "user", "content", "Hello"))))
						.exchange()
						.expectStatus()
						.isOk()
						.returnResult(String.class)
						.getResponseBody()
						.blockLast(Duration.ofSeconds(30));
				}).accept(context);
				List<SessionInfo> sessions = context.getBean(AgentSessions.class)
					.list("ada", 0, 10)
					.block(Duration.ofSeconds(10));
				assertThat(sessions).extracting(SessionInfo::sessionId).containsExactly("kept");
			});
	}

	@Test
	void aStreamSendsRoleTextFinishAndUsageChunksThenDone() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenCallTool("get_weather", Map.of("city", "Lima"))
			.thenReply("Sunny in Lima.")
			.build();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.run(withClient((client) -> {
				List<String> data = stream(client, Map.of("model", "assistant", "stream", true, "stream_options",
						Map.of("include_usage", true), "messages",
						List.of(Map.of("role", "user", "content", "Weather in Lima?"))));
				assertThat(data).last().isEqualTo("[DONE]");
				List<JsonNode> chunks = data.subList(0, data.size() - 1).stream().map(OpenAiEndpointTests::json).toList();
				assertThat(chunks).allSatisfy((chunk) -> {
					assertThat(chunk.path("object").asString()).isEqualTo("chat.completion.chunk");
					assertThat(chunk.path("id").asString()).isEqualTo(chunks.get(0).path("id").asString());
				});
				assertThat(chunks.get(0).at("/choices/0/delta/role").asString()).isEqualTo("assistant");
				StringBuilder text = new StringBuilder();
				chunks.subList(1, chunks.size() - 2)
					.forEach((chunk) -> text.append(chunk.at("/choices/0/delta/content").asString()));
				assertThat(text).hasToString("Sunny in Lima.");
				JsonNode last = chunks.get(chunks.size() - 2);
				assertThat(last.at("/choices/0/finish_reason").asString()).isEqualTo("stop");
				JsonNode usage = chunks.get(chunks.size() - 1);
				assertThat(usage.path("choices").isEmpty()).isTrue();
				assertThat(usage.at("/usage/total_tokens").isNumber()).isTrue();
			}));
	}

	@Test
	void aStreamWithoutIncludeUsageEndsWithTheFinishChunk() {
		this.contextRunner
			.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.builder().thenReply("Hi.").build())
			.run(withClient((client) -> {
				List<String> data = stream(client, Map.of("model", "helper", "stream", true, "messages",
						List.of(Map.of("role", "user", "content", "Hello"))));
				assertThat(data).last().isEqualTo("[DONE]");
				assertThat(json(data.get(data.size() - 2)).at("/choices/0/finish_reason").asString()).isEqualTo("stop");
				assertThat(data).noneMatch((line) -> line.contains("\"usage\""));
			}));
	}

	@Test
	void aModelFailureInAStreamIsAnErrorEventThenDone() {
		ChatModel failing = ScriptedChatModel.answering((request) -> {
			throw new ModelConnectionException("scripted", "connection refused to 10.0.0.1:443", null);
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> failing)
			.run(withClient((client) -> {
				List<String> data = stream(client, Map.of("model", "helper", "stream", true, "messages",
						List.of(Map.of("role", "user", "content", "Hello"))));
				assertThat(data).last().isEqualTo("[DONE]");
				JsonNode error = json(data.get(data.size() - 2));
				assertThat(error.has("choices")).isFalse();
				assertThat(error.at("/error/code").asString()).isEqualTo("model_error");
				assertThat(error.at("/error/type").asString()).isEqualTo("server_error");
				assertThat(error.at("/error/message").asString()).doesNotContain("10.0.0.1");
			}));
	}

	@Test
	void aModelFailureIsABadGatewayInOpenAisErrorShape() {
		ChatModel failing = ScriptedChatModel.answering((request) -> {
			throw new ModelConnectionException("scripted", "connection refused", null);
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> failing)
			.run(withClient((client) -> completions(client)
				.bodyValue(Map.of("model", "helper", "messages", List.of(Map.of("role", "user", "content", "Hi"))))
				.exchange()
				.expectStatus()
				.isEqualTo(502)
				.expectBody()
				.jsonPath("$.error.code")
				.isEqualTo("model_error")
				.jsonPath("$.error.type")
				.isEqualTo("server_error")
				.jsonPath("$.error.message")
				.isEqualTo("The connection to the model provider 'scripted' failed")));
	}

	@Test
	void anExceededBudgetIsARateLimitErrorWithRetryAfter() {
		ChatModel overBudget = ScriptedChatModel.answering((request) -> {
			throw new BudgetExceededException("The budget of 10 turns per minute is used up",
					Budget.Limit.TURNS_PER_MINUTE, Duration.ofSeconds(42));
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> overBudget)
			.run(withClient((client) -> completions(client)
				.bodyValue(Map.of("model", "helper", "messages", List.of(Map.of("role", "user", "content", "Hi"))))
				.exchange()
				.expectStatus()
				.isEqualTo(429)
				.expectHeader()
				.valueEquals("Retry-After", "42")
				.expectBody()
				.jsonPath("$.error.code")
				.isEqualTo("budget_exceeded")
				.jsonPath("$.error.type")
				.isEqualTo("rate_limit_error")));
	}

	@Test
	void exposedToolCallsAreStreamedAsToolCallDeltas() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenCallTool("get_weather", Map.of("city", "Lima"))
			.thenReply("Sunny.")
			.build();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.web.openai.expose-tool-calls=true")
			.run(withClient((client) -> {
				List<String> data = stream(client, Map.of("model", "assistant", "stream", true, "messages",
						List.of(Map.of("role", "user", "content", "Weather in Lima?"))));
				JsonNode call = data.stream()
					.filter((line) -> line.contains("tool_calls"))
					.map(OpenAiEndpointTests::json)
					.findFirst()
					.orElseThrow()
					.at("/choices/0/delta/tool_calls/0");
				assertThat(call.path("index").asInt()).isZero();
				assertThat(call.at("/function/name").asString()).isEqualTo("get_weather");
				assertThat(json(call.at("/function/arguments").asString()).path("city").asString()).isEqualTo("Lima");
			}));
	}

	@Test
	void anUnknownModelIsNotFoundInOpenAisErrorShape() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.builder().build())
			.run(withClient((client) -> completions(client)
				.bodyValue(Map.of("model", "gpt-4o", "messages", List.of(Map.of("role", "user", "content", "Hi"))))
				.exchange()
				.expectStatus()
				.isNotFound()
				.expectBody()
				.jsonPath("$.error.code")
				.isEqualTo("model_not_found")
				.jsonPath("$.error.param")
				.isEqualTo("model")
				.jsonPath("$.error.type")
				.isEqualTo("invalid_request_error")
				.jsonPath("$.error.message")
				.isEqualTo("No agent named 'gpt-4o'; known agents: [assistant, helper]")));
	}

	@Test
	void badRequestsAreAnsweredInOpenAisErrorShape() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.builder().build())
			.run(withClient((client) -> {
				badRequest(client, "{not json", null);
				badRequest(client, "{\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}", "model");
				badRequest(client, "{\"model\":\"helper\"}", "messages");
				badRequest(client, "{\"model\":\"helper\",\"messages\":[{\"role\":\"assistant\",\"content\":\"Hi\"}]}",
						"messages");
			}));
	}

	private static void badRequest(WebTestClient client, String body, String param) {
		completions(client)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.error.type")
			.isEqualTo("invalid_request_error")
			.jsonPath("$.error.message")
			.isNotEmpty()
			.jsonPath("$.error.param")
			.isEqualTo(param);
	}

	private static List<String> stream(WebTestClient client, Map<String, Object> body) {
		List<String> data = completions(client)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody()
			.collectList()
			.block(Duration.ofSeconds(30));
		assertThat(data).isNotNull();
		return data;
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(Consumer<WebTestClient> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			RouterFunction<?> router = context.getBean("agentOpenAiRouterFunction", RouterFunction.class);
			test.accept(WebTestClient.bindToRouterFunction(router).build());
		};
	}

	private static WebTestClient.RequestBodySpec completions(WebTestClient client) {
		return client.post().uri("/v1/chat/completions").contentType(MediaType.APPLICATION_JSON);
	}

}
