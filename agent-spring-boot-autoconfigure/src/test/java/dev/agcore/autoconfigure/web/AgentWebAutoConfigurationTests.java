package dev.agcore.autoconfigure.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.ConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.middleware.builtin.LimitExceededException;
import dev.agcore.middleware.builtin.ModelFallbackMiddleware;
import dev.agcore.middleware.builtin.PiiDetectedException;
import dev.agcore.middleware.builtin.PiiType;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolSpec;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static dev.agcore.autoconfigure.web.AgentRoutes.withClient;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentWebAutoConfiguration}.
 */
class AgentWebAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("weatherTools", WeatherTools.class)
		.withPropertyValues("agent.web.enabled=true");

	@Test
	void disabledByDefault() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AgentWebAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean("agentRouterFunction"));
	}

	@Test
	void notInServletOrPlainApplications() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AgentWebAutoConfiguration.class))
			.withPropertyValues("agent.web.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean("agentRouterFunction"));
	}

	@Test
	void listsAgents() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.withPropertyValues("agent.agents.assistant.provider=scripted",
					"agent.agents.assistant.tools=get_weather")
			.run(withClient((client) -> client.get()
				.uri("/agents")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.json("""
						[{"name": "assistant", "provider": "scripted", "model": "scripted", "tools": ["get_weather"]}]
						""")));
	}

	@Test
	void invokesAgentThatCallsRealTool() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				JsonNode body = postJson(client, "/agents/assistant/invoke",
						Map.of("sessionId", "s1", "message", "What's the weather in Paris?"), HttpStatus.OK);
				assertThat(body.get("sessionId").asString()).isEqualTo("s1");
				assertThat(body.get("output").asString()).isEqualTo("Here you go: Sunny, 21 C in Paris");
				assertThat(body.get("status").asString()).isEqualTo("completed");
				assertThat(body.get("usage").get("inputTokens").asLong()).isEqualTo(20);
				assertThat(body.get("usage").get("outputTokens").asLong()).isPositive();
				JsonNode toolCall = body.get("toolCalls").get(0);
				assertThat(toolCall.get("name").asString()).isEqualTo("get_weather");
				assertThat(toolCall.get("arguments").asString()).isEqualTo("{\"city\":\"Paris\"}");
				assertThat(toolCall.get("result").asString()).isEqualTo("Sunny, 21 C in Paris");
			}));
	}

	@Test
	void streamsEventsAsServerSentEvents() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				List<ServerSentEvent<String>> events = client.post()
					.uri("/agents/assistant/stream")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("sessionId", "s1", "message", "What's the weather in Paris?"))
					.exchange()
					.expectStatus()
					.isOk()
					.expectHeader()
					.contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
					.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
					})
					.getResponseBody()
					.collectList()
					.block(Duration.ofSeconds(10));
				assertThat(events).isNotNull();
				List<String> names = events.stream().map(ServerSentEvent::event).toList();
				assertThat(names).contains("usage");
				List<String> withoutUsage = names.stream().filter((name) -> !"usage".equals(name)).toList();
				assertThat(withoutUsage.subList(0, 2)).containsExactly("tool_call", "tool_result");
				assertThat(withoutUsage.subList(2, withoutUsage.size() - 1)).isNotEmpty().containsOnly("text");
				assertThat(withoutUsage).last().isEqualTo("completed");
				JsonNode toolCall = json(events.get(names.indexOf("tool_call")).data());
				assertThat(toolCall.get("name").asString()).isEqualTo("get_weather");
				JsonNode toolResult = json(events.get(names.indexOf("tool_result")).data());
				assertThat(toolResult.get("result").asString()).isEqualTo("Sunny, 21 C in Paris");
				assertThat(toolResult.get("error").asBoolean()).isFalse();
				String text = events.stream()
					.filter((event) -> "text".equals(event.event()))
					.map((event) -> json(event.data()).get("text").asString())
					.reduce("", String::concat);
				assertThat(text).isEqualTo("Here you go: Sunny, 21 C in Paris");
				JsonNode completed = json(events.get(events.size() - 1).data());
				assertThat(completed.get("output").asString()).isEqualTo(text);
				assertThat(completed.get("status").asString()).isEqualTo("completed");
				assertThat(completed.get("toolCalls").get(0).get("name").asString()).isEqualTo("get_weather");
			}));
	}

	@Test
	void returnsStoredConversation() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				postJson(client, "/agents/assistant/invoke", Map.of("sessionId", "s1", "message", "Paris?"),
						HttpStatus.OK);
				JsonNode messages = getJson(client, "/agents/assistant/sessions/s1/messages", HttpStatus.OK);
				assertThat(messages.size()).isEqualTo(4);
				assertThat(messages.get(0).get("role").asString()).isEqualTo("user");
				assertThat(messages.get(0).get("text").asString()).isEqualTo("Paris?");
				assertThat(messages.get(1).get("role").asString()).isEqualTo("assistant");
				assertThat(messages.get(1).get("toolCalls").get(0).get("name").asString()).isEqualTo("get_weather");
				assertThat(messages.get(2).get("role").asString()).isEqualTo("tool");
				assertThat(messages.get(2).get("toolCallId").asString())
					.isEqualTo(messages.get(1).get("toolCalls").get(0).get("id").asString());
				assertThat(messages.get(2).get("text").asString()).isEqualTo("Sunny, 21 C in Paris");
				assertThat(messages.get(3).get("text").asString()).isEqualTo("Here you go: Sunny, 21 C in Paris");
				assertThat(getJson(client, "/agents/assistant/sessions/unknown/messages", HttpStatus.OK).size())
					.isZero();
			}));
	}

	@Test
	void unknownAgentIsNotFound() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				JsonNode body = postJson(client, "/agents/nope/invoke", Map.of("sessionId", "s1", "message", "Hi"),
						HttpStatus.NOT_FOUND);
				assertThat(body.get("error").asString()).isEqualTo("not_found");
				assertThat(body.get("message").asString()).contains("'nope'").contains("[assistant]");
				assertThat(postJson(client, "/agents/nope/stream", Map.of("sessionId", "s1", "message", "Hi"),
						HttpStatus.NOT_FOUND)
					.get("error")
					.asString()).isEqualTo("not_found");
				assertThat(getJson(client, "/agents/nope/sessions/s1/messages", HttpStatus.NOT_FOUND).get("error")
					.asString()).isEqualTo("not_found");
			}));
	}

	@Test
	void invalidRequestsAreBadRequestsNamingTheField() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				assertBadRequest(postJson(client, "/agents/assistant/invoke", Map.of("message", "Hi"),
						HttpStatus.BAD_REQUEST), "'sessionId'");
				assertBadRequest(postJson(client, "/agents/assistant/invoke", Map.of("sessionId", " ", "message", "Hi"),
						HttpStatus.BAD_REQUEST), "'sessionId'");
				assertBadRequest(postJson(client, "/agents/assistant/invoke", Map.of("sessionId", "s1"),
						HttpStatus.BAD_REQUEST), "'message'");
				assertBadRequest(postJson(client, "/agents/assistant/stream", Map.of("sessionId", "s1", "message", ""),
						HttpStatus.BAD_REQUEST), "'message'");
				assertBadRequest(postRaw(client, "/agents/assistant/invoke", "{\"sessionId\": ", HttpStatus.BAD_REQUEST),
						"Malformed request body");
				assertBadRequest(postRaw(client, "/agents/assistant/invoke", "", HttpStatus.BAD_REQUEST),
						"expected a JSON object like {\"sessionId\"");
			}));
	}

	@Test
	void sessionIdsLongerThanTheLimitAreRefusedOnWriteAndReadRoutesAlike() {
		String tooLong = "s".repeat(257);
		String longest = "s".repeat(256);
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				assertBadRequest(postJson(client, "/agents/assistant/invoke", Map.of("sessionId", tooLong, "message", "Hi"),
						HttpStatus.BAD_REQUEST), "'sessionId' must be at most 256 characters, was 257");
				assertBadRequest(postJson(client, "/agents/assistant/stream", Map.of("sessionId", tooLong, "message", "Hi"),
						HttpStatus.BAD_REQUEST), "at most 256 characters");
				assertBadRequest(getJson(client, "/agents/assistant/sessions/" + tooLong + "/messages",
						HttpStatus.BAD_REQUEST), "at most 256 characters");
				assertBadRequest(postJson(client, "/agents/assistant/sessions/" + tooLong + "/resume",
						Map.of("decisions", Map.of("c1", Map.of("type", "approve"))), HttpStatus.BAD_REQUEST),
						"at most 256 characters");
				postJson(client, "/agents/assistant/invoke", Map.of("sessionId", longest, "message", "Weather in Paris?"),
						HttpStatus.OK);
				assertThat(getJson(client, "/agents/assistant/sessions/" + longest + "/messages", HttpStatus.OK).size())
					.isGreaterThan(0);
			}));
	}

	@Test
	void wrongContentTypeIsReportedAsJson() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				String body = client.post()
					.uri("/agents/assistant/invoke")
					.contentType(MediaType.TEXT_PLAIN)
					.bodyValue("hello")
					.exchange()
					.expectStatus()
					.isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
					.expectBody(String.class)
					.returnResult()
					.getResponseBody();
				assertThat(json(body).get("message").asString()).contains("application/json");
			}));
	}

	@Test
	void modelFailureIsBadGateway() {
		ChatModel failing = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("openai", 500, "openai returned HTTP 500: The server had an error");
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> failing)
			.run(withClient((client) -> {
				String body = postRaw(client, "/agents/assistant/invoke", "{\"sessionId\":\"s1\",\"message\":\"Hi\"}",
						HttpStatus.BAD_GATEWAY);
				assertNoStackTrace(body);
				assertThat(json(body).get("error").asString()).isEqualTo("model_error");
				assertThat(json(body).get("message").asString())
					.isEqualTo("openai returned HTTP 500: The server had an error");
			}));
	}

	@Test
	void providerFailureIsBadGatewayWithoutRetries() throws Exception {
		try (MockWebServer server = new MockWebServer()) {
			server.start();
			server.enqueue(new MockResponse.Builder().code(500)
				.addHeader("Content-Type", "application/json")
				.body("{\"error\": {\"message\": \"The server had an error while processing your request.\", "
						+ "\"type\": \"server_error\"}}")
				.build());
			this.contextRunner
				.withPropertyValues("agent.providers.openai.base-url=" + server.url("/v1"),
						"agent.providers.openai.model=gpt-4o-mini", "agent.retry.max-attempts=1")
				.run(withClient((client) -> {
					String body = postRaw(client, "/agents/assistant/invoke",
							"{\"sessionId\":\"s1\",\"message\":\"Hi\"}", HttpStatus.BAD_GATEWAY);
					assertNoStackTrace(body);
					assertThat(json(body).get("error").asString()).isEqualTo("model_error");
					assertThat(json(body).get("message").asString())
						.contains("The server had an error while processing your request.");
					assertThat(server.getRequestCount()).isEqualTo(1);
				}));
		}
	}

	@Test
	void unexpectedFailureIsInternalErrorWithoutDetails() {
		ChatModel broken = ScriptedChatModel.answering((request) -> {
			throw new IllegalStateException("secret internal detail");
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> broken)
			.run(withClient((client) -> {
				String body = postRaw(client, "/agents/assistant/invoke", "{\"sessionId\":\"s1\",\"message\":\"Hi\"}",
						HttpStatus.INTERNAL_SERVER_ERROR);
				assertNoStackTrace(body);
				assertThat(body).doesNotContain("secret internal detail").doesNotContain("IllegalStateException");
				assertThat(json(body).get("error").asString()).isEqualTo("internal_error");
			}));
	}

	@Test
	void streamReportsModelFailureAsErrorEvent() {
		ChatModel failing = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("openai", 503, "openai is overloaded");
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> failing)
			.run(withClient((client) -> {
				List<ServerSentEvent<String>> events = client.post()
					.uri("/agents/assistant/stream")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("sessionId", "s1", "message", "Hi"))
					.exchange()
					.expectStatus()
					.isOk()
					.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
					})
					.getResponseBody()
					.collectList()
					.block(Duration.ofSeconds(10));
				assertThat(events).singleElement().satisfies((event) -> {
					assertThat(event.event()).isEqualTo("error");
					assertNoStackTrace(event.data());
					assertThat(json(event.data()).get("message").asString()).isEqualTo("openai is overloaded");
				});
			}));
	}

	@Test
	void streamHidesDetailsOfUnexpectedFailure() {
		ChatModel broken = ScriptedChatModel.answering((request) -> {
			throw new IllegalStateException("secret internal detail");
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> broken)
			.run(withClient((client) -> {
				String body = client.post()
					.uri("/agents/assistant/stream")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("sessionId", "s1", "message", "Hi"))
					.exchange()
					.expectStatus()
					.isOk()
					.expectBody(String.class)
					.returnResult()
					.getResponseBody();
				assertNoStackTrace(body);
				assertThat(body).contains("event:error")
					.contains("internal_error")
					.doesNotContain("secret internal detail")
					.doesNotContain("IllegalStateException");
			}));
	}

	@Test
	void blockedPersonalDataIsUnprocessableOnInvokeAndStream() {
		ChatModel blocking = ScriptedChatModel.answering((request) -> {
			throw new PiiDetectedException(PiiType.EMAIL, "the user message");
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> blocking).run(withClient((client) -> {
			String body = postRaw(client, "/agents/assistant/invoke", "{\"sessionId\":\"s1\",\"message\":\"Hi\"}",
					HttpStatus.UNPROCESSABLE_CONTENT);
			assertThat(json(body).get("error").asString()).isEqualTo("unprocessable");
			assertThat(json(body).get("message").asString())
				.isEqualTo("The user message contains an email address; the turn was blocked by the PII policy");
			assertThat(streamEvents(client, "/agents/assistant/stream", Map.of("sessionId", "s2", "message", "Hi")))
				.singleElement()
				.satisfies((event) -> {
					assertThat(event.event()).isEqualTo("error");
					assertThat(json(event.data()).get("error").asString()).isEqualTo("unprocessable");
					assertThat(json(event.data()).get("message").asString()).isEqualTo(
							"The user message contains an email address; the turn was blocked by the PII policy");
				});
		}));
	}

	@Test
	void reachedLimitIsTooManyRequests() {
		ChatModel limited = ScriptedChatModel.answering((request) -> {
			throw new LimitExceededException("model_calls_per_session", 5,
					"Agent 'assistant' reached its model call limit (5 per session)");
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> limited).run(withClient((client) -> {
			String body = postRaw(client, "/agents/assistant/invoke", "{\"sessionId\":\"s1\",\"message\":\"Hi\"}",
					HttpStatus.TOO_MANY_REQUESTS);
			assertThat(json(body).get("error").asString()).isEqualTo("limit_exceeded");
			assertThat(json(body).get("message").asString())
				.isEqualTo("Agent 'assistant' reached its model call limit (5 per session)");
		}));
	}

	@Test
	void tooLargeBodyIsContentTooLarge() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.run(withClient((client) -> {
				// larger than the codecs' default in-memory limit of 256 KB
				String large = "x".repeat(300 * 1024);
				Map<String, Object> turn = Map.of("sessionId", "s1", "message", large);
				Map<String, Object> resume = Map.of("decisions",
						Map.of("call-1", Map.of("type", "reject", "reason", large)));
				for (Map.Entry<String, Object> request : Map.<String, Object>of("/agents/assistant/invoke", turn,
						"/agents/assistant/stream", turn, "/agents/assistant/sessions/s1/resume", resume)
					.entrySet()) {
					JsonNode error = postJson(client, request.getKey(), request.getValue(), HttpStatus.CONTENT_TOO_LARGE);
					assertThat(error.get("error").asString()).isEqualTo("content_too_large");
					assertThat(error.get("message").asString()).isEqualTo("Request body is too large");
				}
			}));
	}

	@Test
	void unreachableModelIsReportedWithoutItsAddress() {
		ChatModel unreachable = ScriptedChatModel.answering((request) -> {
			throw new ModelConnectionException("openai",
					"Connection to openai failed: Connection refused: llm.internal.example:8443", null);
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> unreachable).run(withClient((client) -> {
			String body = postRaw(client, "/agents/assistant/invoke", "{\"sessionId\":\"s1\",\"message\":\"Hi\"}",
					HttpStatus.BAD_GATEWAY);
			assertThat(body).doesNotContain("llm.internal.example").doesNotContain("8443");
			assertThat(json(body).get("error").asString()).isEqualTo("model_error");
			assertThat(json(body).get("message").asString()).isEqualTo("The connection to the model provider 'openai' failed");
			assertThat(streamEvents(client, "/agents/assistant/stream", Map.of("sessionId", "s2", "message", "Hi")))
				.singleElement()
				.satisfies((event) -> assertThat(json(event.data()).get("message").asString())
					.isEqualTo("The connection to the model provider 'openai' failed"));
		}));
	}

	@Test
	void modelTimeoutIsReportedWithoutDetails() {
		ChatModel slow = ScriptedChatModel.answering((request) -> {
			throw new ModelTimeoutException("openai",
					"openai did not answer in time: no response from http://10.0.0.7:8000/v1 within PT30S", null);
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> slow).run(withClient((client) -> {
			String body = postRaw(client, "/agents/assistant/invoke", "{\"sessionId\":\"s1\",\"message\":\"Hi\"}",
					HttpStatus.BAD_GATEWAY);
			assertThat(body).doesNotContain("10.0.0.7");
			assertThat(json(body).get("message").asString())
				.isEqualTo("The model provider 'openai' did not answer in time");
		}));
	}

	@Test
	void turnPastItsTimeoutIsGatewayTimeoutOnInvokeAndAnErrorEventOnStream() {
		ChatModel silent = new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return Mono.never();
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				return Flux.never();
			}

		};
		String message = "Agent 'assistant' did not finish the turn within its turn timeout of PT0.2S; "
				+ "nothing was stored";
		this.contextRunner.withBean("scripted", ChatModel.class, () -> silent)
			.withPropertyValues("agent.agents.assistant.turn-timeout=200ms")
			.run(withClient((client) -> {
				String body = postRaw(client, "/agents/assistant/invoke", "{\"sessionId\":\"s1\",\"message\":\"Hi\"}",
						HttpStatus.GATEWAY_TIMEOUT);
				assertThat(json(body).get("error").asString()).isEqualTo("turn_timeout");
				assertThat(json(body).get("message").asString()).isEqualTo(message);
				assertThat(streamEvents(client, "/agents/assistant/stream", Map.of("sessionId", "s2", "message", "Hi")))
					.singleElement()
					.satisfies((event) -> {
						assertThat(event.event()).isEqualTo("error");
						assertNoStackTrace(event.data());
						assertThat(json(event.data()).get("error").asString()).isEqualTo("turn_timeout");
						assertThat(json(event.data()).get("message").asString()).isEqualTo(message);
					});
			}));
	}

	@Test
	void agentStreamThatSignalsAnErrorEndsWithErrorEvent() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.withBean("broken", Agent.class, BrokenStreamAgent::new)
			.run(withClient((client) -> {
				List<ServerSentEvent<String>> streamed = streamEvents(client, "/agents/broken/stream",
						Map.of("sessionId", "s1", "message", "Hi"));
				List<ServerSentEvent<String>> resumed = streamEvents(client, "/agents/broken/sessions/s1/resume/stream",
						Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))));
				for (List<ServerSentEvent<String>> events : List.of(streamed, resumed)) {
					assertThat(events).extracting(ServerSentEvent::event).containsExactly("text", "error");
					assertThat(json(events.get(0).data()).get("text").asString()).isEqualTo("Hel");
					String error = events.get(1).data();
					assertNoStackTrace(error);
					assertThat(error).doesNotContain("secret internal detail").doesNotContain("IllegalStateException");
					assertThat(json(error).get("error").asString()).isEqualTo("internal_error");
				}
			}));
	}

	@Test
	void streamTellsTheClientToDiscardTextAFallbackReplaced() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.withBean("resilient", Agent.class, () -> Agent.builder()
				.name("resilient")
				.model(new BreaksMidwayModel())
				.middleware(ModelFallbackMiddleware.builder(ScriptedChatModel.replaying(ScriptedChatModel.text("Backup.")))
					.build())
				.build())
			.run(withClient((client) -> {
				List<ServerSentEvent<String>> events = streamEvents(client, "/agents/resilient/stream",
						Map.of("sessionId", "s1", "message", "Hi"));
				assertThat(events).extracting(ServerSentEvent::event)
					.containsExactly("text", "text_reset", "text", "usage", "completed");
				assertThat(json(events.get(1).data()).isEmpty()).isTrue();
				assertThat(json(events.get(2).data()).get("text").asString()).isEqualTo("Backup.");
			}));
	}

	@Test
	void turnWaitingForApprovalIsReportedWithPendingCalls() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.withUserConfiguration(ApprovalAgentConfiguration.class)
			.run(withClient((client) -> {
				JsonNode result = postJson(client, "/agents/careful/invoke",
						Map.of("sessionId", "s1", "message", "Weather in Paris?"), HttpStatus.OK);
				assertThat(result.get("status").asString()).isEqualTo("interrupted");
				JsonNode pending = result.get("pendingToolCalls").get(0);
				assertThat(pending.get("name").asString()).isEqualTo("get_weather");
				assertThat(pending.get("arguments").asString()).isEqualTo("{\"city\":\"Paris\"}");
				JsonNode conflict = postJson(client, "/agents/careful/invoke",
						Map.of("sessionId", "s1", "message", "Hello?"), HttpStatus.CONFLICT);
				assertThat(conflict.get("error").asString()).isEqualTo("conflict");
				String stream = client.post()
					.uri("/agents/careful/stream")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("sessionId", "s2", "message", "Weather in Paris?"))
					.exchange()
					.expectStatus()
					.isOk()
					.expectBody(String.class)
					.returnResult()
					.getResponseBody();
				assertThat(stream).contains("event:interrupt").contains("\"pendingToolCalls\"");
				JsonNode completed = postJson(client, "/agents/assistant/invoke",
						Map.of("sessionId", "s3", "message", "Weather in Paris?"), HttpStatus.OK);
				assertThat(completed.has("pendingToolCalls")).isFalse();
			}));
	}

	@Test
	void customBasePath() {
		this.contextRunner.withBean("scripted", ChatModel.class, AgentWebAutoConfigurationTests::weatherModel)
			.withPropertyValues("agent.web.base-path=/api/agents/")
			.run(withClient((client) -> {
				assertThat(getJson(client, "/api/agents", HttpStatus.OK).get(0).get("name").asString())
					.isEqualTo("assistant");
				postJson(client, "/api/agents/assistant/invoke", Map.of("sessionId", "s1", "message", "Hi"),
						HttpStatus.OK);
			}));
	}

	@Test
	void invalidBasePathFails() {
		this.contextRunner.withPropertyValues("agent.web.base-path=agents")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.web.base-path must be a path starting with '/' (was 'agents')"));
	}

	@Configuration(proxyBeanMethods = false)
	static class ApprovalAgentConfiguration {

		@Bean
		Agent careful(ChatModel scripted, ToolRegistry tools, ConversationStore conversationStore) {
			return Agent.builder()
				.name("careful")
				.model(scripted)
				.tools(tools.all())
				.conversationStore(conversationStore)
				.middleware(HumanInTheLoopMiddleware.forTools(Set.of("get_weather")))
				.build();
		}

		@Bean
		Agent assistant(ChatModel scripted, ToolRegistry tools, ConversationStore conversationStore) {
			return Agent.builder()
				.name("assistant")
				.model(scripted)
				.tools(tools.all())
				.conversationStore(conversationStore)
				.build();
		}

	}

	/** Streams a piece of an answer, then fails as a dropped connection would. */
	static class BreaksMidwayModel implements ChatModel {

		@Override
		public Mono<ChatResponse> call(ChatRequest request) {
			return Mono.error(new IllegalStateException("streamed only"));
		}

		@Override
		public Flux<ChatChunk> stream(ChatRequest request) {
			return Flux.just(ChatChunk.text("The answer "))
				.concatWith(Flux.error(new ModelServerException("scripted", 503, "connection reset")));
		}

	}

	/** An application's agent whose streams fail after their first event. */
	static class BrokenStreamAgent implements Agent {

		private final ChatModel model = ScriptedChatModel.replaying();

		@Override
		public String name() {
			return "broken";
		}

		@Override
		public ChatModel model() {
			return this.model;
		}

		@Override
		public String systemPrompt() {
			return "";
		}

		@Override
		public List<ToolSpec> tools() {
			return List.of();
		}

		@Override
		public List<ToolCallback> toolCallbacks() {
			return List.of();
		}

		@Override
		public int maxIterations() {
			return 1;
		}

		@Override
		public Mono<List<Message>> history(String sessionId) {
			return Mono.just(List.of());
		}

		@Override
		public Mono<AgentResult> invoke(AgentRequest request) {
			return Mono.error(new IllegalStateException("secret internal detail"));
		}

		@Override
		public Flux<AgentEvent> stream(AgentRequest request) {
			return failingStream();
		}

		@Override
		public Mono<AgentResult> resume(ResumeRequest request) {
			return Mono.error(new IllegalStateException("secret internal detail"));
		}

		@Override
		public Flux<AgentEvent> resumeStream(ResumeRequest request) {
			return failingStream();
		}

		private static Flux<AgentEvent> failingStream() {
			return Flux.<AgentEvent>just(new AgentEvent.TextDelta("Hel"))
				.concatWith(Flux.error(new IllegalStateException("secret internal detail")));
		}

	}

	/** Calls get_weather for the city in the question, then answers from its result. */
	static ChatModel weatherModel() {
		return ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			if (last instanceof ToolResultMessage result) {
				return ScriptedChatModel.text("Here you go: " + result.text());
			}
			String question = ((UserMessage) last).text();
			String city = question.contains("Paris") ? "Paris" : "Oslo";
			return ScriptedChatModel.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\":\"" + city + "\"}"));
		});
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
		assertNoStackTrace(response);
		return json(response);
	}

	private static String postRaw(WebTestClient client, String uri, String body, HttpStatus status) {
		String response = client.post()
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertNoStackTrace(response);
		return response;
	}

	private static List<ServerSentEvent<String>> streamEvents(WebTestClient client, String uri, Object body) {
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

	private static JsonNode getJson(WebTestClient client, String uri, HttpStatus status) {
		String response = client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertNoStackTrace(response);
		return json(response);
	}

	private static void assertBadRequest(Object body, String expectedMessage) {
		JsonNode json = (body instanceof JsonNode node) ? node : json((String) body);
		assertThat(json.get("error").asString()).isEqualTo("bad_request");
		assertThat(json.get("message").asString()).contains(expectedMessage);
	}

	private static void assertNoStackTrace(String body) {
		assertThat(body).isNotNull().doesNotContain("\tat ").doesNotContain("at dev.agcore").doesNotContain("at org.");
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

}
