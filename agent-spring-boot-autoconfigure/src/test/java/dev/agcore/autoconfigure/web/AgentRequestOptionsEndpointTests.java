package dev.agcore.autoconfigure.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
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
 * Tests for the model options, the structured answers and the reasoning of the agent
 * endpoint.
 */
class AgentRequestOptionsEndpointTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("weatherTools", WeatherTools.class)
		.withUserConfiguration(Models.class)
		.withPropertyValues("agent.web.enabled=true");

	@Test
	void optionsInTheBodyReachTheModel() {
		this.contextRunner.run(withClient((context, client) -> {
			JsonNode body = postJson(client, "/agents/assistant/invoke", Map.of("sessionId", "s1", "message", "hi",
					"temperature", 0.25, "maxTokens", 64, "toolChoice", "none", "responseFormat", "json_object"),
					HttpStatus.OK);
			assertThat(body.get("output").asString()).isEqualTo("main answer");
			ChatOptions sent = context.getBean("main", ScriptedChatModel.class).requests().get(0).options();
			assertThat(sent).isEqualTo(ChatOptions.builder()
				.temperature(0.25)
				.maxTokens(64)
				.toolChoice(ToolChoice.NONE)
				.responseFormat(ResponseFormat.JSON_OBJECT)
				.build());
		}));
	}

	@Test
	void mediaInTheBodyReachTheModelWithTheUserMessage() {
		this.contextRunner.run(withClient((context, client) -> {
			postJson(client, "/agents/assistant/invoke", Map.of("sessionId", "s1", "message", "what is this?", "media",
					List.of(Map.of("mediaType", "image/png", "url", "https://example.com/cat.png"),
							Map.of("mediaType", "application/pdf", "data", "JVBERi0=", "fileName", "a.pdf"))),
					HttpStatus.OK);
			UserMessage sent = (UserMessage) context.getBean("main", ScriptedChatModel.class)
				.requests()
				.get(0)
				.messages()
				.stream()
				.filter(UserMessage.class::isInstance)
				.reduce((first, second) -> second)
				.orElseThrow();
			assertThat(sent.text()).isEqualTo("what is this?");
			assertThat(sent.media()).containsExactly(
					Media.url(java.net.URI.create("https://example.com/cat.png"), "image/png"),
					new Media("application/pdf", null, "%PDF-".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
							"a.pdf"));
		}));
	}

	@Test
	void badMediaIsA400NamingTheEntry() {
		this.contextRunner.run(withClient((context, client) -> {
			JsonNode both = postJson(client, "/agents/assistant/invoke", Map.of("sessionId", "s1", "message", "hi",
					"media", List.of(Map.of("mediaType", "image/png", "url", "https://x/y.png", "data", "AA=="))),
					HttpStatus.BAD_REQUEST);
			assertThat(both.get("message").asString()).isEqualTo("'media[0]' must have exactly one of 'url' and 'data'");
			JsonNode notBase64 = postJson(client, "/agents/assistant/invoke", Map.of("sessionId", "s1", "message",
					"hi", "media", List.of(Map.of("mediaType", "image/png", "data", "not base64!"))),
					HttpStatus.BAD_REQUEST);
			assertThat(notBase64.get("message").asString()).startsWith("'media[0].data' must be base64");
			JsonNode fileUrl = postJson(client, "/agents/assistant/invoke", Map.of("sessionId", "s1", "message", "hi",
					"media", List.of(Map.of("mediaType", "image/png", "url", "file:///etc/passwd"))),
					HttpStatus.BAD_REQUEST);
			assertThat(fileUrl.get("message").asString()).isEqualTo("'media[0].url' must be an http:// or https:// URL");
			assertThat(context.getBean("main", ScriptedChatModel.class).requests()).isEmpty();
		}));
	}

	@Test
	void aModelTheAgentAllowsIsChosenByNameAndOthersAreRefused() {
		this.contextRunner.run(withClient((context, client) -> {
			JsonNode body = postJson(client, "/agents/assistant/invoke",
					Map.of("sessionId", "s1", "message", "hi", "model", "cheap"), HttpStatus.OK);
			assertThat(body.get("output").asString()).isEqualTo("cheap answer");
			JsonNode refused = postJson(client, "/agents/assistant/invoke",
					Map.of("sessionId", "s2", "message", "hi", "model", "gpt-9"), HttpStatus.BAD_REQUEST);
			assertThat(refused.get("error").asString()).isEqualTo("model_not_allowed");
			assertThat(refused.get("message").asString()).contains("'gpt-9'").contains("[cheap]");
			assertThat(context.getBean("main", ScriptedChatModel.class).requests()).isEmpty();
		}));
	}

	@Test
	void badOptionsAreBadRequestsNamingTheField() {
		this.contextRunner.run(withClient((context, client) -> {
			assertBadRequest(client, Map.of("temperature", "hot"), "'temperature' must be a number from 0 to 2");
			assertBadRequest(client, Map.of("temperature", 2.5), "'temperature'");
			assertBadRequest(client, Map.of("maxTokens", 0), "'maxTokens' must be a positive whole number");
			assertBadRequest(client, Map.of("maxTokens", 1.5), "'maxTokens'");
			assertBadRequest(client, Map.of("toolChoice", 3), "'toolChoice' must be");
			assertBadRequest(client, Map.of("toolChoice", "delete_everything"),
					"'toolChoice' names no tool of agent 'assistant' ('delete_everything'); its tools: [get_forecast, get_weather]");
			assertBadRequest(client, Map.of("responseFormat", "xml"), "'responseFormat' must be \"text\" or \"json_object\"");
			assertBadRequest(client, Map.of("responseSchema", "object"), "'responseSchema' must be a JSON schema object");
			assertBadRequest(client, Map.of("responseSchema", Map.of("type", "object"), "responseFormat", "text"),
					"exclude each other");
			assertBadRequest(client, Map.of("model", " "), "'model'");
			assertThat(context.getBean("main", ScriptedChatModel.class).requests()).isEmpty();
		}));
	}

	@Test
	void aResponseSchemaMakesTheOutputParsedJson() {
		Map<String, Object> schema = Map.of("type", "object", "properties",
				Map.of("city", Map.of("type", "string")), "required", List.of("city"));
		this.contextRunner.run(withClient((context, client) -> {
			JsonNode body = postJson(client, "/agents/structured/invoke",
					Map.of("sessionId", "s1", "message", "where?", "responseSchema", schema), HttpStatus.OK);
			assertThat(body.get("output").isObject()).isTrue();
			assertThat(body.get("output").get("city").asString()).isEqualTo("Paris");
			ResponseFormat sent = context.getBean("structuredModel", ScriptedChatModel.class)
				.requests()
				.get(0)
				.options()
				.responseFormat();
			assertThat(sent.type()).isEqualTo(ResponseFormat.Type.JSON_SCHEMA);
			assertThat(sent.schema().get("required").get(0).asString()).isEqualTo("city");
		}));
	}

	@Test
	void aStreamedStructuredTurnCompletesWithParsedJsonAndARefusedModelEndsWithAnErrorEvent() {
		this.contextRunner.run(withClient((context, client) -> {
			List<ServerSentEvent<String>> events = stream(client, "/agents/structured/stream",
					Map.of("sessionId", "s1", "message", "where?", "responseSchema", Map.of("type", "object")));
			ServerSentEvent<String> completed = events.get(events.size() - 1);
			assertThat(completed.event()).isEqualTo("completed");
			assertThat(json(completed.data()).get("output").get("city").asString()).isEqualTo("Paris");

			List<ServerSentEvent<String>> refused = stream(client, "/agents/assistant/stream",
					Map.of("sessionId", "s2", "message", "hi", "model", "gpt-9"));
			assertThat(refused).singleElement().satisfies((event) -> {
				assertThat(event.event()).isEqualTo("error");
				assertThat(json(event.data()).get("message").asString()).contains("may not use model 'gpt-9'");
			});
		}));
	}

	@Test
	void aResumedTurnTakesOptionsToo() {
		this.contextRunner.run(withClient((context, client) -> {
			JsonNode paused = postJson(client, "/agents/careful/invoke", Map.of("sessionId", "s1", "message", "Paris?"),
					HttpStatus.OK);
			assertThat(paused.get("status").asString()).isEqualTo("interrupted");
			Map<String, Object> approve = Map.of("call-1", Map.of("type", "approve"));
			JsonNode badField = postJson(client, "/agents/careful/sessions/s1/resume",
					Map.of("decisions", approve, "maxTokens", -1), HttpStatus.BAD_REQUEST);
			assertThat(badField.get("message").asString()).contains("'maxTokens'");
			JsonNode refused = postJson(client, "/agents/careful/sessions/s1/resume",
					Map.of("decisions", approve, "model", "gpt-9"), HttpStatus.BAD_REQUEST);
			assertThat(refused.get("error").asString()).isEqualTo("model_not_allowed");
			JsonNode resumed = postJson(client, "/agents/careful/sessions/s1/resume",
					Map.of("decisions", approve, "model", "cheap", "temperature", 0.5), HttpStatus.OK);
			assertThat(resumed.get("output").asString()).isEqualTo("cheap answer");
		}));
	}

	@Test
	void anAnswerThatStaysInvalidIsUnprocessable() {
		this.contextRunner.run(withClient((context, client) -> {
			JsonNode body = postJson(client, "/agents/assistant/invoke",
					Map.of("sessionId", "s1", "message", "hi", "responseSchema", Map.of("type", "object")),
					HttpStatus.UNPROCESSABLE_CONTENT);
			assertThat(body.get("error").asString()).isEqualTo("structured_output_invalid");
			assertThat(body.get("message").asString()).contains("answer was: main answer");
		}));
	}

	@Test
	void reasoningIsStreamedAsReasoningEventsAndReturnedApartFromTheOutput() {
		this.contextRunner.run(withClient((context, client) -> {
			List<ServerSentEvent<String>> events = stream(client, "/agents/thinker/stream",
					Map.of("sessionId", "s1", "message", "2+2?"));
			assertThat(events).extracting(ServerSentEvent::event).startsWith("reasoning", "reasoning", "text");
			assertThat(json(events.get(0).data()).get("text").asString()).isEqualTo("two pl");
			JsonNode completed = json(events.get(events.size() - 1).data());
			assertThat(completed.get("output").asString()).isEqualTo("Four.");
			assertThat(completed.get("reasoning").asString()).isEqualTo("two plus two");
		}));
	}

	@Configuration(proxyBeanMethods = false)
	static class Models {

		@Bean
		ScriptedChatModel main() {
			return ScriptedChatModel.answering((request) -> ScriptedChatModel.text("main answer"));
		}

		@Bean
		ScriptedChatModel structuredModel() {
			return ScriptedChatModel.answering((request) -> ScriptedChatModel.text("{\"city\": \"Paris\"}"))
				.withCapabilities(ModelCapability.TOOLS, ModelCapability.STRUCTURED_OUTPUT);
		}

		@Bean
		Agent assistant(ScriptedChatModel main, ToolRegistry tools) {
			ScriptedChatModel cheap = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("cheap answer"));
			return Agent.builder().name("assistant").model(main).tools(tools.all()).models(Map.of("cheap", cheap)).build();
		}

		@Bean
		Agent careful(ToolRegistry tools) {
			ScriptedChatModel weather = ScriptedChatModel.answering((request) -> ScriptedChatModel
				.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\":\"Paris\"}")));
			ScriptedChatModel cheap = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("cheap answer"));
			return Agent.builder()
				.name("careful")
				.model(weather)
				.tools(tools.all())
				.models(Map.of("cheap", cheap))
				.middleware(HumanInTheLoopMiddleware.forTools(Set.of("get_weather")))
				.build();
		}

		@Bean
		Agent structured(ScriptedChatModel structuredModel) {
			return Agent.builder().name("structured").model(structuredModel).build();
		}

		@Bean
		Agent thinker() {
			ChatResponse answer = new ChatResponse(
					new AssistantMessage("Four.", List.of(), List.of(Reasoning.of("two plus two")), null),
					Usage.of(3, 3), FinishReason.STOP, "scripted");
			return Agent.builder().name("thinker").model(ScriptedChatModel.answering((request) -> answer)).build();
		}

	}

	private static void assertBadRequest(WebTestClient client, Map<String, Object> options, String expectedMessage) {
		Map<String, Object> body = new java.util.HashMap<>(options);
		body.put("sessionId", "s1");
		body.put("message", "hi");
		JsonNode json = postJson(client, "/agents/assistant/invoke", body, HttpStatus.BAD_REQUEST);
		assertThat(json.get("error").asString()).isEqualTo("bad_request");
		assertThat(json.get("message").asString()).contains(expectedMessage);
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(
			java.util.function.BiConsumer<AssertableReactiveWebApplicationContext, WebTestClient> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
			test.accept(context, WebTestClient.bindToRouterFunction(router).build());
		};
	}

	private static List<ServerSentEvent<String>> stream(WebTestClient client, String uri, Object body) {
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

	private static JsonNode postJson(WebTestClient client, String uri, Object body, HttpStatus status) {
		String response = client.post()
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(response).doesNotContain("\tat ");
		return json(response);
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

}
