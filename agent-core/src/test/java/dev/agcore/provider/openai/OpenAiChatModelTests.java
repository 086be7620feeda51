package dev.agcore.provider.openai;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.ContextLengthExceededException;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.model.Usage;
import dev.agcore.provider.support.LogCapture;
import dev.agcore.tool.ToolSpec;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import okio.BufferedSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OpenAiChatModel} against a {@link MockWebServer}.
 */
class OpenAiChatModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	// Reactor Netty returns a connection to the pool just after the response completed,
	// so the next call sometimes opens another: one per call would be 20 of 20
	private static final int MOSTLY_ONE_CONNECTION = 5;

	private static final ChatRequest HELLO = ChatRequest
		.of(List.of(new SystemMessage("You are terse."), new UserMessage("Hello")));

	private final MockWebServer server = new MockWebServer();

	@BeforeEach
	void startServer() throws IOException {
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void callReturnsTextAndSendsPlainRequest() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hello! How can I assist you today?");
		assertThat(response.message().toolCalls()).isEmpty();
		assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(response.usage()).isEqualTo(new Usage(19, 10, 29));
		assertThat(response.model()).isEqualTo("gpt-4.1-2025-04-14");
		RecordedRequest recorded = take();
		assertThat(recorded.getMethod()).isEqualTo("POST");
		assertThat(recorded.getTarget()).isEqualTo("/v1/chat/completions");
		assertThat(recorded.getHeaders().get("Authorization")).isEqualTo("Bearer sk-test");
		assertThat(recorded.getHeaders().get("Content-Type")).startsWith("application/json");
		JsonNode body = body(recorded);
		assertThat(body).isEqualTo(json("""
				{"model": "gpt-4o-mini", "messages": [
					{"role": "system", "content": "You are terse."},
					{"role": "user", "content": "Hello"}]}
				"""));
		assertThat(body.has("tools")).isFalse();
		assertThat(body.has("tool_choice")).isFalse();
		assertThat(body.has("stream")).isFalse();
	}

	@Test
	void callWithBlankApiKeySendsNoAuthorizationHeader() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		OpenAiSettings settings = OpenAiSettings.of(this.server.url("/v1/").toString(), " ", "llama3");
		model(settings).call(HELLO).block(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getTarget()).isEqualTo("/v1/chat/completions");
		assertThat(recorded.getHeaders().get("Authorization")).isNull();
	}

	@Test
	void callAppliesOptionsOverSettings() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		OpenAiChatModel model = model(settings().withTemperature(0.2).withMaxTokens(100));
		assertThat(model.providerName()).isEqualTo("openai");
		assertThat(model.modelName()).isEqualTo("gpt-4o-mini");
		model.call(new ChatRequest(HELLO.messages(), List.of(), new ChatOptions("gpt-4.1", 0.7, null)))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("model").asString()).isEqualTo("gpt-4.1");
		assertThat(body.get("temperature").asDouble()).isEqualTo(0.7);
		assertThat(body.get("max_tokens").asInt()).isEqualTo(100);
	}

	@Test
	void callParsesToolCalls() {
		this.server.enqueue(Fixtures.json(200, "parallel-tool-use.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEmpty();
		assertThat(response.message().toolCalls()).containsExactly(
				new ToolCall("call_abc123", "get_current_weather", "{\n\"location\": \"Boston, MA\"\n}"),
				new ToolCall("call_def456", "get_time", "{\"timezone\":\"America/New_York\"}"));
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(response.usage()).isEqualTo(new Usage(82, 17, 99));
	}

	@Test
	void callSendsToolsAndMultiTurnHistory() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ObjectNode schema = (ObjectNode) json("""
				{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
				""");
		ToolCall call = new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}");
		List<Message> history = List.of(new SystemMessage("Be helpful."), new UserMessage("Weather in Paris?"),
				AssistantMessage.of(List.of(call)), ToolResultMessage.success(call, "18°C, sunny"),
				new AssistantMessage("Checking", List.of(new ToolCall("call_2", "get_weather", "{}"))),
				ToolResultMessage.failure(new ToolCall("call_2", "get_weather", "{}"), "city is required"),
				AssistantMessage.of("It is 18°C and sunny."), new UserMessage("Thanks"));
		model(settings())
			.call(ChatRequest.of(history, List.of(new ToolSpec("get_weather", "Current weather", schema))))
			.block(TIMEOUT);
		assertThat(body(take())).isEqualTo(json("""
				{"model": "gpt-4o-mini",
				 "messages": [
					{"role": "system", "content": "Be helpful."},
					{"role": "user", "content": "Weather in Paris?"},
					{"role": "assistant", "content": null, "tool_calls": [
						{"id": "call_1", "type": "function",
						 "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}}]},
					{"role": "tool", "tool_call_id": "call_1", "content": "18°C, sunny"},
					{"role": "assistant", "content": "Checking", "tool_calls": [
						{"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
					{"role": "tool", "tool_call_id": "call_2", "content": "city is required"},
					{"role": "assistant", "content": "It is 18°C and sunny."},
					{"role": "user", "content": "Thanks"}],
				 "tools": [
					{"type": "function", "function": {"name": "get_weather", "description": "Current weather",
					 "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
					 "required": ["city"]}}}]}
				"""));
	}

	@Test
	void streamEmitsTextChunksAndFinalUsage() throws Exception {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-text.sse")));
		StepVerifier.create(model(settings()).stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("Hello"))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo(" wörld"))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("!"))
			.assertNext((chunk) -> assertThat(chunk.finishReason()).isEqualTo(FinishReason.STOP))
			.assertNext((chunk) -> {
				assertThat(chunk.usage()).isEqualTo(new Usage(9, 3, 12));
				assertThat(chunk.textDelta()).isEmpty();
				assertThat(chunk.finishReason()).isNull();
			})
			.expectComplete()
			.verify(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getHeaders().get("Accept")).isEqualTo("text/event-stream");
		JsonNode body = body(recorded);
		assertThat(body.get("stream").asBoolean()).isTrue();
		assertThat(body.get("stream_options")).isEqualTo(json("{\"include_usage\": true}"));
		assertThat(body.has("tools")).isFalse();
		assertThat(body.has("tool_choice")).isFalse();
	}

	@Test
	void streamServedInTinyNetworkReadsIsDecodedIntact() {
		MockResponse response = new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "text/event-stream")
			.chunkedBody(Fixtures.read("stream-text.sse"), 7)
			.build();
		this.server.enqueue(response);
		ChatResponse folded = fold(model(settings()).stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().text()).isEqualTo("Hello wörld!");
		assertThat(folded.usage()).isEqualTo(new Usage(9, 3, 12));
	}

	@Test
	void streamToolCallFragmentsFoldIntoCalls() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-tool-args.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks).hasSizeGreaterThan(6);
		assertThat(chunks.stream().flatMap((chunk) -> chunk.toolCalls().stream()).filter((d) -> d.id() != null))
			.hasSize(2);
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().toolCalls()).containsExactly(
				new ToolCall("call_weather", "get_weather", "{\"city\": \"Paris\"}"),
				new ToolCall("call_time", "get_time", "{\"zone\": \"UTC\"}"));
		assertThat(folded.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(folded.usage()).isEqualTo(new Usage(120, 40, 160));
		assertThat(folded.model()).isEqualTo("gpt-4o-mini");
	}

	@ParameterizedTest
	@ValueSource(strings = { "\n", "\r\n", "\r" })
	void streamToleratesCommentsEventLinesKeepAlivesAndLineEnds(String lineEnd) {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-with-comments.sse").replace("\n", lineEnd)));
		ChatResponse folded = fold(model(settings()).stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().text()).isEqualTo("Hi there");
		assertThat(folded.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(folded.usage()).isEqualTo(new Usage(5, 2, 7));
		assertThat(folded.model()).isEqualTo("llama3");
	}

	@Test
	void streamWithoutDoneEndsNormally() {
		String body = Fixtures.read("stream-text.sse").replace("data: [DONE]\n", "");
		this.server.enqueue(Fixtures.sse(body));
		ChatResponse folded = fold(model(settings()).stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().text()).isEqualTo("Hello wörld!");
	}

	@Test
	void streamCutBeforeFinishReasonAndDoneFailsInsteadOfEndingAsAnAnswer() {
		this.server.enqueue(Fixtures.sse("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The answer is\"}}]}\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectNextCount(1)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("before the answer was complete"))
			.verify(TIMEOUT);
	}

	@Test
	void streamWithDoneButNoFinishReasonFails() {
		this.server.enqueue(Fixtures.sse(
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The answer is\"}}]}\n\ndata: [DONE]\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectNextCount(1)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("no finish_reason"))
			.verify(TIMEOUT);
	}

	@Test
	void streamAnsweredWithAJsonErrorKeepsTheProvidersMessage() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"error\":{\"message\":\"model overloaded\",\"type\":\"server_error\"}}")
			.build());
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("model overloaded"))
			.verify(TIMEOUT);
	}

	@Test
	void streamAnsweredWithAWholeJsonCompletionSaysSo() {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("one JSON body instead of an event stream"))
			.verify(TIMEOUT);
	}

	@Test
	void streamOfChunksWithoutChoicesFails() {
		this.server.enqueue(Fixtures.sse("data: {\"id\":\"x\"}\n\ndata: {\"id\":\"x\",\"choices\":[]}\n\ndata: [DONE]\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectError(ModelResponseException.class)
			.verify(TIMEOUT);
	}

	@Test
	void streamOfKeepAliveCommentsOnlyFails() {
		this.server.enqueue(Fixtures.sse(": keep-alive\n\n: keep-alive\n\n: ping\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectError(ModelResponseException.class)
			.verify(TIMEOUT);
	}

	@Test
	void streamWithoutAnyEventFails() {
		this.server.enqueue(Fixtures.sse(""));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectError(ModelResponseException.class)
			.verify(TIMEOUT);
	}

	@Test
	void callWith401FailsWithProviderMessage() {
		this.server.enqueue(Fixtures.json(401, "error-401.json"));
		StepVerifier.create(model(settings()).call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelAuthenticationException.class)
				.hasMessageContaining("Incorrect API key provided")
				.hasMessageContaining("401");
			assertThat(((ModelException) ex).statusCode()).isEqualTo(401);
			assertThat(((ModelException) ex).provider()).isEqualTo("openai");
			assertThat(((ModelException) ex).isRetryable()).isFalse();
		}).verify(TIMEOUT);
	}

	@Test
	void streamWith401Fails() {
		this.server.enqueue(Fixtures.json(401, "error-401.json"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelAuthenticationException.class)
				.hasMessageContaining("Incorrect API key provided"))
			.verify(TIMEOUT);
	}

	@Test
	void contextLengthExceededIsRecognized() {
		this.server.enqueue(Fixtures.json(400, "error-context-length.json"));
		this.server.enqueue(Fixtures.json(400, "error-context-length.json"));
		OpenAiChatModel model = model(settings());
		StepVerifier.create(model.call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ContextLengthExceededException.class)
				.hasMessageContaining("maximum context length is 128000 tokens"))
			.verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO))
			.expectError(ContextLengthExceededException.class)
			.verify(TIMEOUT);
	}

	@Test
	void callWithMalformedJsonFailsWithResponseException() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"choices\": [ {\"message\": ")
			.build());
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("malformed JSON"))
			.verify(TIMEOUT);
	}

	@Test
	void streamWithMalformedChunkFailsWithResponseException() {
		this.server.enqueue(Fixtures.sse("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {oops\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("Hi"))
			.expectError(ModelResponseException.class)
			.verify(TIMEOUT);
	}

	@Test
	void streamWithErrorChunkFailsWithServerException() {
		this.server.enqueue(Fixtures.sse("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"
				+ "data: {\"error\":{\"message\":\"The model is overloaded\",\"type\":\"server_error\"}}\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("Hi"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("The model is overloaded"))
			.verify(TIMEOUT);
	}

	@Test
	void streamWithPlainStringErrorFailsWithServerException() {
		this.server.enqueue(Fixtures.sse("data: {\"error\": \"model not loaded\"}\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("model not loaded"))
			.verify(TIMEOUT);
	}

	@Test
	void callWithErrorBodyAndStatus200FailsWithServerException() {
		this.server.enqueue(Fixtures.json(200, "error-500.json"));
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("The server had an error"))
			.verify(TIMEOUT);
	}

	@Test
	void callWith500FailsWithServerException() {
		this.server.enqueue(Fixtures.json(500, "error-500.json"));
		StepVerifier.create(model(settings()).call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelServerException.class).hasMessageContaining("The server had an error");
			assertThat(((ModelException) ex).statusCode()).isEqualTo(500);
		}).verify(TIMEOUT);
	}

	@Test
	void callWith429CarriesRetryAfter() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(429, "error-429.json")).addHeader("Retry-After", "20")
			.build());
		StepVerifier.create(model(settings()).call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelRateLimitException.class).hasMessageContaining("Rate limit reached");
			assertThat(((ModelException) ex).retryAfter()).isEqualTo(Duration.ofSeconds(20));
		}).verify(TIMEOUT);
	}

	@Test
	void connectionResetMidStreamFailsWithConnectionExceptionAfterChunks() {
		this.server.enqueue(resetAfterFirstChunks());
		StepVerifier.create(model(settings()).stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("Hello"))
			.thenConsumeWhile((chunk) -> true)
			.expectErrorSatisfies((ex) -> {
				assertThat(ex).isInstanceOf(ModelConnectionException.class).hasCauseInstanceOf(IOException.class);
			})
			.verify(TIMEOUT);
	}

	@Test
	void slowResponseFailsWithTimeoutException() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(200, "answer.json"))
			.headersDelay(3, TimeUnit.SECONDS)
			.build());
		this.server.enqueue(new MockResponse.Builder(Fixtures.sse(Fixtures.read("stream-text.sse")))
			.headersDelay(3, TimeUnit.SECONDS)
			.build());
		OpenAiChatModel model = model(settings().withResponseTimeout(Duration.ofMillis(300)));
		StepVerifier.create(model.call(HELLO)).expectError(ModelTimeoutException.class).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ModelTimeoutException.class).verify(TIMEOUT);
	}

	@Test
	void streamOfOnlyCommentsFailsWithTimeoutAfterResponseTimeout() {
		this.server.enqueue(sseForever("", ": keep-alive\n\n", Duration.ofMillis(50)));
		OpenAiChatModel model = model(settings().withResponseTimeout(Duration.ofMillis(500)));
		long start = System.nanoTime();
		StepVerifier.create(model.stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelTimeoutException.class)
				.hasMessageContaining("500 ms"))
			.verify(TIMEOUT);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void streamThatStopsSendingDataButKeepsSendingCommentsFailsWithTimeout() {
		String first = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
		this.server.enqueue(sseForever(first, ": keep-alive\n\n", Duration.ofMillis(50)));
		OpenAiChatModel model = model(settings().withResponseTimeout(Duration.ofMillis(500)));
		long start = System.nanoTime();
		StepVerifier.create(model.stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("Hel"))
			.expectError(ModelTimeoutException.class)
			.verify(TIMEOUT);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void streamWhoseDataEventsEachArriveWithinResponseTimeoutMayLastLonger() {
		// 1454 bytes at 250 every 300 ms: about 1.8 s in all, at most 600 ms between events
		this.server.enqueue(new MockResponse.Builder(Fixtures.sse(Fixtures.read("stream-text.sse")))
			.throttleBody(250, 300, TimeUnit.MILLISECONDS)
			.build());
		OpenAiChatModel model = model(settings().withResponseTimeout(Duration.ofMillis(1500)));
		ChatResponse folded = fold(model.stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().text()).isEqualTo("Hello wörld!");
	}

	@Test
	void sequentialStreamsReuseOnePooledConnection() throws Exception {
		OpenAiChatModel model = model(settings());
		for (int i = 0; i < 20; i++) {
			this.server.enqueue((i % 2 == 0) ? Fixtures.sse(Fixtures.read("stream-text.sse"))
					: chunkedSse(Fixtures.read("stream-text.sse")));
		}
		for (int i = 0; i < 20; i++) {
			assertThat(fold(model.stream(HELLO).collectList().block(TIMEOUT)).message().text())
				.isEqualTo("Hello wörld!");
		}
		assertThat(connectionsUsed(20)).isLessThanOrEqualTo(MOSTLY_ONE_CONNECTION);
	}

	@Test
	void concurrentStreamsReusePooledConnections() throws Exception {
		OpenAiChatModel model = model(settings());
		for (int i = 0; i < 20; i++) {
			this.server.enqueue(chunkedSse(Fixtures.read("stream-text.sse")));
		}
		for (int round = 0; round < 5; round++) {
			List<List<ChatChunk>> answers = Flux.range(0, 4)
				.flatMap((i) -> model.stream(HELLO).collectList())
				.collectList()
				.block(TIMEOUT);
			assertThat(answers).hasSize(4);
		}
		// four at a time need four connections, and now and then one more (see above)
		assertThat(connectionsUsed(20)).isLessThanOrEqualTo(8);
	}

	@Test
	void sequentialCallsReuseOnePooledConnection() throws Exception {
		OpenAiChatModel model = model(settings());
		for (int i = 0; i < 20; i++) {
			this.server.enqueue(Fixtures.json(200, "answer.json"));
		}
		for (int i = 0; i < 20; i++) {
			model.call(HELLO).block(TIMEOUT);
		}
		assertThat(connectionsUsed(20)).isLessThanOrEqualTo(MOSTLY_ONE_CONNECTION);
	}

	@Test
	void streamCompletesAtDoneWhenTheServerKeepsTheBodyOpen() {
		this.server.enqueue(sseForever(Fixtures.read("stream-text.sse"), ": keep-alive\n\n", Duration.ofMillis(50)));
		OpenAiChatModel model = model(settings().withResponseTimeout(Duration.ofSeconds(30)));
		long start = System.nanoTime();
		ChatResponse folded = fold(model.stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().text()).isEqualTo("Hello wörld!");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
	}

	@Test
	void streamWithAnEventOverTheLimitFailsWithoutReleasingABufferTwice() throws InterruptedException {
		String huge = "data: {\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(16 * 1024 * 1024) + "\"}}]}\n\n";
		this.server.enqueue(chunkedSse(huge));
		try (LogCapture log = LogCapture.start()) {
			StepVerifier.create(model(settings()).stream(HELLO))
				.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
					.hasMessageContaining("exceeds 16777216 bytes"))
				.verify(TIMEOUT);
			// Netty reports a double release when it frees its own buffers, as the connection closes
			Thread.sleep(500);
			assertThat(log.failures()).isEmpty();
		}
	}

	@Test
	void refusedConnectionFailsWithConnectionException() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		OpenAiChatModel model = model(OpenAiSettings.of("http://127.0.0.1:" + port + "/v1", "sk-test", "gpt"));
		StepVerifier.create(model.call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelConnectionException.class)
				.hasMessageContaining("openai"))
			.verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ModelConnectionException.class).verify(TIMEOUT);
	}

	@Test
	void settingsToStringHidesApiKey() {
		assertThat(settings().toString()).doesNotContain("sk-test").contains("apiKey=******");
	}

	/**
	 * A stream whose connection is closed after its first two events went out: the
	 * events are followed by padding so that the socket closes at half the body.
	 */
	static MockResponse resetAfterFirstChunks() {
		String events = Fixtures.read("stream-text.sse");
		String firstTwo = events.substring(0, events.indexOf("data:", events.indexOf("Hello")));
		String body = firstTwo + ": " + "x".repeat(firstTwo.length() * 2) + "\n\n" + events;
		return new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "text/event-stream")
			.body(body)
			.onResponseBody(new SocketEffect.CloseSocket())
			.build();
	}

	/**
	 * A chunked stream that sends {@code first}, then {@code repeated} every
	 * {@code interval} until the client goes away (or 20 s pass), never ending the body.
	 */
	static MockResponse sseForever(String first, String repeated, Duration interval) {
		MockResponseBody body = new MockResponseBody() {

			@Override
			public long getContentLength() {
				return -1;
			}

			@Override
			public void writeTo(BufferedSink sink) throws IOException {
				writeChunk(sink, first);
				long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
				while (System.nanoTime() < deadline) {
					try {
						Thread.sleep(interval.toMillis());
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return;
					}
					writeChunk(sink, repeated);
				}
			}

			private void writeChunk(BufferedSink sink, String text) throws IOException {
				byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
				if (bytes.length > 0) {
					sink.writeUtf8(Integer.toHexString(bytes.length) + "\r\n").write(bytes).writeUtf8("\r\n").flush();
				}
			}

		};
		return new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "text/event-stream")
			.body(body)
			.removeHeader("Content-Length")
			.addHeader("Transfer-Encoding", "chunked")
			.build();
	}

	static MockResponse chunkedSse(String body) {
		return new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "text/event-stream")
			.chunkedBody(body, 1024)
			.build();
	}

	private long connectionsUsed(int requests) throws InterruptedException {
		Set<Integer> connections = new HashSet<>();
		for (int i = 0; i < requests; i++) {
			connections.add(take().getConnectionIndex());
		}
		return connections.size();
	}

	private OpenAiSettings settings() {
		return OpenAiSettings.of(this.server.url("/v1").toString(), "sk-test", "gpt-4o-mini");
	}

	private static OpenAiChatModel model(OpenAiSettings settings) {
		return OpenAiChatModel.builder().settings(settings).build();
	}

	private RecordedRequest take() throws InterruptedException {
		RecordedRequest request = this.server.takeRequest(5, TimeUnit.SECONDS);
		assertThat(request).isNotNull();
		return request;
	}

	private static JsonNode body(RecordedRequest request) {
		return json(request.getBody().utf8());
	}

	private static JsonNode json(String json) {
		return AgentJson.mapper().readTree(json);
	}

	private static ChatResponse fold(List<ChatChunk> chunks) {
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator();
		chunks.forEach(accumulator::add);
		return accumulator.toResponse();
	}

}
