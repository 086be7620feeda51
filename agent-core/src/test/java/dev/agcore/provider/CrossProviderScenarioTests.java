package dev.agcore.provider;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.agcore.Tool;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.provider.anthropic.AnthropicChatModel;
import dev.agcore.provider.anthropic.AnthropicSettings;
import dev.agcore.provider.gemini.GeminiChatModel;
import dev.agcore.provider.gemini.GeminiSettings;
import dev.agcore.provider.ollama.OllamaChatModel;
import dev.agcore.provider.ollama.OllamaChatSettings;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.tool.method.MethodTools;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One agent scenario — the model calls a tool, then answers from its result, as text
 * (plain and streamed) or as a Java record (structured output, through each provider's
 * native option) — run unchanged over the OpenAI, Anthropic, Gemini and Ollama wire
 * formats, each served by a local fake replaying that provider's documented response
 * shapes.
 * What the agent returns, stores and sends back must not depend on the provider.
 */
class CrossProviderScenarioTests {

	private static final String ANSWER = "It is 18 degrees and sunny in Paris.";

	private static final String FORECAST = "{\"city\":\"Paris\",\"temperature\":18,\"sky\":\"sunny\"}";

	// the same inside a JSON string
	private static final String FORECAST_ESCAPED = FORECAST.replace("\"", "\\\"");

	private final MockWebServer server = new MockWebServer();

	private final Weather weather = new Weather();

	@BeforeEach
	void start() throws IOException {
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	static Stream<WireFake> providers() {
		return Stream.of(WireFake.OPENAI, WireFake.ANTHROPIC, WireFake.GEMINI, WireFake.OLLAMA);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("providers")
	void toolCallThenAnswer(WireFake fake) throws InterruptedException {
		this.server.enqueue(fake.json(fake.toolCall));
		this.server.enqueue(fake.json(fake.answer));
		Agent agent = agent(fake);

		AgentResult result = agent.call(AgentRequest.of("s1", "What is the weather in Paris?"));

		assertThat(result.output()).isEqualTo(ANSWER);
		assertThat(this.weather.cities).containsExactly("Paris");
		assertThat(result.toolExecutions()).singleElement()
			.satisfies((execution) -> assertThat(execution.toString()).contains("get_weather"));
		assertThat(result.usage().inputTokens()).isEqualTo(100);
		assertThat(result.usage().outputTokens()).isEqualTo(20);
		assertConversation(result.messages());
		assertSecondRequestCarriesTheToolResult(fake);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("providers")
	void streamedToolCallThenAnswer(WireFake fake) throws InterruptedException {
		this.server.enqueue(fake.stream(fake.streamedToolCall));
		this.server.enqueue(fake.stream(fake.streamedAnswer));
		Agent agent = agent(fake);

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "What is the weather in Paris?"))
			.collectList()
			.block(Duration.ofSeconds(10));

		assertThat(events).filteredOn(AgentEvent.ToolCallStarted.class::isInstance)
			.singleElement()
			.satisfies((event) -> {
				AgentEvent.ToolCallStarted started = (AgentEvent.ToolCallStarted) event;
				assertThat(started.name()).isEqualTo("get_weather");
				assertThat(started.arguments()).contains("\"city\"").contains("\"Paris\"");
			});
		String streamedText = events.stream()
			.filter(AgentEvent.TextDelta.class::isInstance)
			.map((event) -> ((AgentEvent.TextDelta) event).text())
			.reduce("", String::concat);
		assertThat(streamedText).isEqualTo(ANSWER);
		assertThat(events).last().isInstanceOfSatisfying(AgentEvent.Completed.class, (completed) -> {
			assertThat(completed.result().output()).isEqualTo(ANSWER);
			assertConversation(completed.result().messages());
		});
		assertThat(this.weather.cities).containsExactly("Paris");
		assertSecondRequestCarriesTheToolResult(fake);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("providers")
	void toolCallThenStructuredAnswer(WireFake fake) throws InterruptedException {
		this.server.enqueue(fake.json(fake.toolCall));
		this.server.enqueue(fake.json(fake.structuredAnswer));
		Agent agent = agent(fake);

		Forecast forecast = agent.call(AgentRequest.of("s1", "What is the weather in Paris?"), Forecast.class);

		assertThat(forecast).isEqualTo(new Forecast("Paris", 18, "sunny"));
		assertThat(this.weather.cities).containsExactly("Paris");
		RecordedRequest first = this.server.takeRequest();
		RecordedRequest second = this.server.takeRequest();
		// the schema goes as the provider's native option on every call of the turn
		assertThat(first.getBody().utf8()).contains(fake.structuredOutputMarker).contains("\"temperature\"");
		assertThat(second.getBody().utf8()).contains(fake.structuredOutputMarker).contains(fake.toolResultMarker);
	}

	/** The structured answer of the scenario. */
	record Forecast(String city, int temperature, String sky) {
	}

	private Agent agent(WireFake fake) {
		ChatModel model = fake.model.apply(this.server.url("/").toString().replaceAll("/$", ""));
		return Agent.builder().name("weather").model(model).tools(MethodTools.from(this.weather)).build();
	}

	private static void assertConversation(List<Message> messages) {
		assertThat(messages).hasSize(4);
		assertThat(messages.get(0)).isInstanceOf(UserMessage.class);
		assertThat(messages.get(1)).isInstanceOfSatisfying(AssistantMessage.class,
				(call) -> assertThat(call.toolCalls()).singleElement().satisfies((toolCall) -> {
					assertThat(toolCall.name()).isEqualTo("get_weather");
					assertThat(toolCall.arguments()).contains("Paris");
				}));
		assertThat(messages.get(2)).isInstanceOfSatisfying(ToolResultMessage.class, (result) -> {
			assertThat(result.error()).isFalse();
			assertThat(result.text()).contains("18 degrees, sunny");
			assertThat(result.toolCallId())
				.isEqualTo(((AssistantMessage) messages.get(1)).toolCalls().get(0).id());
		});
		assertThat(messages.get(3)).isInstanceOfSatisfying(AssistantMessage.class,
				(answer) -> assertThat(answer.text()).isEqualTo(ANSWER));
	}

	private void assertSecondRequestCarriesTheToolResult(WireFake fake) throws InterruptedException {
		RecordedRequest first = this.server.takeRequest();
		RecordedRequest second = this.server.takeRequest();
		assertThat(first.getUrl().encodedPath()).contains(fake.path);
		assertThat(first.getBody().utf8()).contains("get_weather").contains("What is the weather in Paris?");
		assertThat(second.getBody().utf8()).contains(fake.toolResultMarker).contains("18 degrees, sunny");
	}

	/** The tool every provider's model calls. */
	public static final class Weather {

		final List<String> cities = new CopyOnWriteArrayList<>();

		@Tool(name = "get_weather", description = "Current weather in a city")
		public String getWeather(String city) {
			this.cities.add(city);
			return "18 degrees, sunny";
		}

	}

	/**
	 * A provider's wire format: how to build its model against the fake, and the
	 * responses of the scenario in its documented shapes.
	 */
	enum WireFake {

		OPENAI("/chat/completions", "\"role\":\"tool\"", "application/json", "text/event-stream",
				(url) -> OpenAiChatModel.builder().settings(OpenAiSettings.of(url + "/v1", "sk-test", "gpt-4o-mini")).build(),
				"""
						{"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"gpt-4o-mini",
						 "choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
						  {"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}}]},
						  "finish_reason":"tool_calls"}],
						 "usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}
						""",
				"""
						{"id":"chatcmpl-2","object":"chat.completion","created":1741569953,"model":"gpt-4o-mini",
						 "choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],
						 "usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}
						""".formatted(ANSWER),
				"""
						data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}

						data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"ci"}}]},"finish_reason":null}]}

						data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\\":\\"Paris\\"}"}}]},"finish_reason":null}]}

						data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

						data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}

						data: [DONE]

						""",
				"""
						data: {"id":"c2","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"It is 18 degrees "},"finish_reason":null}]}

						data: {"id":"c2","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"and sunny in Paris."},"finish_reason":null}]}

						data: {"id":"c2","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

						data: {"id":"c2","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}

						data: [DONE]

						""",
				"\"response_format\"",
				"""
						{"id":"chatcmpl-3","object":"chat.completion","created":1741569953,"model":"gpt-4o-mini",
						 "choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],
						 "usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}
						""".formatted(FORECAST_ESCAPED)),

		ANTHROPIC("/v1/messages", "\"tool_result\"", "application/json", "text/event-stream",
				(url) -> AnthropicChatModel.builder()
					.settings(AnthropicSettings.of("sk-ant-test", "claude-sonnet-4-5").withBaseUrl(url))
					.build(),
				"""
						{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5",
						 "content":[{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"}}],
						 "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":10}}
						""",
				"""
						{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-5",
						 "content":[{"type":"text","text":"%s"}],
						 "stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":10}}
						""".formatted(ANSWER),
				"""
						event: message_start
						data: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":1}}}

						event: content_block_start
						data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{}}}

						event: ping
						data: {"type":"ping"}

						event: content_block_delta
						data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}

						event: content_block_delta
						data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Pa"}}

						event: content_block_delta
						data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"ris\\"}"}}

						event: content_block_stop
						data: {"type":"content_block_stop","index":0}

						event: message_delta
						data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":10}}

						event: message_stop
						data: {"type":"message_stop"}

						""",
				"""
						event: message_start
						data: {"type":"message_start","message":{"id":"msg_02","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":1}}}

						event: content_block_start
						data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

						event: content_block_delta
						data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It is 18 degrees "}}

						event: content_block_delta
						data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"and sunny in Paris."}}

						event: content_block_stop
						data: {"type":"content_block_stop","index":0}

						event: message_delta
						data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":10}}

						event: message_stop
						data: {"type":"message_stop"}

						""",
				"\"final_answer\"",
				"""
						{"id":"msg_03","type":"message","role":"assistant","model":"claude-sonnet-4-5",
						 "content":[{"type":"tool_use","id":"toolu_02","name":"final_answer","input":%s}],
						 "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":10}}
						""".formatted(FORECAST)),

		GEMINI("/v1beta/models/gemini-2.5-flash:", "\"functionResponse\"", "application/json", "text/event-stream",
				(url) -> GeminiChatModel.builder()
					.settings(GeminiSettings.of("gemini-test-key", "gemini-2.5-flash").withBaseUrl(url + "/v1beta"))
					.build(),
				"""
						{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}}]},
						  "finishReason":"STOP","index":0}],
						 "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60},
						 "modelVersion":"gemini-2.5-flash"}
						""",
				"""
						{"candidates":[{"content":{"role":"model","parts":[{"text":"%s"}]},"finishReason":"STOP","index":0}],
						 "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60},
						 "modelVersion":"gemini-2.5-flash"}
						""".formatted(ANSWER),
				"""
						data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60},"modelVersion":"gemini-2.5-flash"}

						""",
				"""
						data: {"candidates":[{"content":{"role":"model","parts":[{"text":"It is 18 degrees "}]},"index":0}],"usageMetadata":{"promptTokenCount":50,"totalTokenCount":50},"modelVersion":"gemini-2.5-flash"}

						data: {"candidates":[{"content":{"role":"model","parts":[{"text":"and sunny in Paris."}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60},"modelVersion":"gemini-2.5-flash"}

						""",
				"\"responseSchema\"",
				"""
						{"candidates":[{"content":{"role":"model","parts":[{"text":"%s"}]},"finishReason":"STOP","index":0}],
						 "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60},
						 "modelVersion":"gemini-2.5-flash"}
						""".formatted(FORECAST_ESCAPED)),

		OLLAMA("/api/chat", "\"role\":\"tool\"", "application/json", "application/x-ndjson",
				(url) -> OllamaChatModel.builder().settings(OllamaChatSettings.of(url, "llama3.2")).build(),
				"""
						{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"",
						 "tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},
						 "done_reason":"stop","done":true,"total_duration":1,"prompt_eval_count":50,"eval_count":10}
						""",
				"""
						{"model":"llama3.2","created_at":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":"%s"},
						 "done_reason":"stop","done":true,"total_duration":1,"prompt_eval_count":50,"eval_count":10}
						""".formatted(ANSWER),
				"""
						{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}
						{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":50,"eval_count":10}
						""",
				"""
						{"model":"llama3.2","created_at":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":"It is 18 degrees "},"done":false}
						{"model":"llama3.2","created_at":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":"and sunny in Paris."},"done":false}
						{"model":"llama3.2","created_at":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":50,"eval_count":10}
						""",
				"\"format\"",
				"""
						{"model":"llama3.2","created_at":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":"%s"},
						 "done_reason":"stop","done":true,"total_duration":1,"prompt_eval_count":50,"eval_count":10}
						""".formatted(FORECAST_ESCAPED));

		final String path;

		final String toolResultMarker;

		final String jsonType;

		final String streamType;

		final Function<String, ChatModel> model;

		final String toolCall;

		final String answer;

		final String streamedToolCall;

		final String streamedAnswer;

		final String structuredOutputMarker;

		final String structuredAnswer;

		WireFake(String path, String toolResultMarker, String jsonType, String streamType,
				Function<String, ChatModel> model, String toolCall, String answer, String streamedToolCall,
				String streamedAnswer, String structuredOutputMarker, String structuredAnswer) {
			this.structuredOutputMarker = structuredOutputMarker;
			this.structuredAnswer = structuredAnswer;
			this.path = path;
			this.toolResultMarker = toolResultMarker;
			this.jsonType = jsonType;
			this.streamType = streamType;
			this.model = model;
			this.toolCall = toolCall;
			this.answer = answer;
			this.streamedToolCall = streamedToolCall;
			this.streamedAnswer = streamedAnswer;
		}

		MockResponse json(String body) {
			return new MockResponse.Builder().code(200).addHeader("Content-Type", this.jsonType).body(body).build();
		}

		MockResponse stream(String body) {
			return new MockResponse.Builder().code(200).addHeader("Content-Type", this.streamType).body(body).build();
		}

	}

}
