package dev.agcore.provider.ollama;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
import dev.agcore.provider.support.LogCapture;
import dev.agcore.tool.ToolSpec;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.BufferedSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OllamaChatModel} against a {@link MockWebServer} replaying the
 * payloads of Ollama's API docs.
 */
class OllamaChatModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final ChatRequest HELLO = ChatRequest
		.of(List.of(new SystemMessage("You are terse."), new UserMessage("why is the sky blue?")));

	private static final ObjectNode CITY_SCHEMA = (ObjectNode) json("""
			{"type": "object", "required": ["city"],
			 "properties": {"city": {"type": "string", "description": "The name of the city"}}}
			""");

	private static final ToolSpec GET_TEMPERATURE = new ToolSpec("get_temperature",
			"Get the current temperature for a city", CITY_SCHEMA);

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
	void callReturnsTextUsageAndModelAndSendsPlainRequest() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hello! How are you today?");
		assertThat(response.message().toolCalls()).isEmpty();
		assertThat(response.message().reasoning()).isEmpty();
		assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(response.usage()).isEqualTo(new Usage(26, 298, 324));
		assertThat(response.model()).isEqualTo("llama3.2");
		RecordedRequest recorded = take();
		assertThat(recorded.getMethod()).isEqualTo("POST");
		assertThat(recorded.getTarget()).isEqualTo("/api/chat");
		assertThat(recorded.getHeaders().get("Authorization")).isNull();
		assertThat(recorded.getHeaders().get("Content-Type")).startsWith("application/json");
		assertThat(body(recorded)).isEqualTo(json("""
				{"model": "llama3.2", "messages": [
					{"role": "system", "content": "You are terse."},
					{"role": "user", "content": "why is the sky blue?"}],
				 "stream": false}
				"""));
	}

	@Test
	void callSendsApiKeyAsBearerAndConfiguredHeaders() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		model(settings().withApiKey("ollama-key").withHeaders(Map.of("X-Team", "agents"))).call(HELLO).block(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getHeaders().get("Authorization")).isEqualTo("Bearer ollama-key");
		assertThat(recorded.getHeaders().get("X-Team")).isEqualTo("agents");
	}

	@Test
	void callParsesAToolCallWhoseArgumentsAreAnObject() {
		this.server.enqueue(json(200, "tool-use.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEmpty();
		assertThat(response.message().toolCalls()).hasSize(1);
		ToolCall call = response.message().toolCalls().get(0);
		assertThat(call.id()).isEqualTo("call_0");
		assertThat(call.name()).isEqualTo("get_current_weather");
		assertThat(json(call.arguments())).isEqualTo(json("{\"format\": \"celsius\", \"location\": \"Paris, FR\"}"));
		// Ollama says "stop" when it calls tools: the calls decide
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(response.usage()).isEqualTo(new Usage(122, 33, 155));
	}

	@Test
	void callParsesParallelToolCallsWithGeneratedIds() {
		this.server.enqueue(json(200, "parallel-tool-use.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().toolCalls()).containsExactly(
				new ToolCall("call_0", "get_temperature", "{\"city\":\"New York\"}"),
				new ToolCall("call_1", "get_conditions", "{\"city\":\"New York\"}"),
				new ToolCall("call_2", "get_temperature", "{\"city\":\"London\"}"),
				new ToolCall("call_3", "get_conditions", "{\"city\":\"London\"}"));
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
	}

	@Test
	void callKeepsTheIdsNewerOllamaVersionsGive() {
		this.server.enqueue(jsonBody(200, """
				{"model": "qwen3", "message": {"role": "assistant", "content": "", "tool_calls": [
					{"id": "call_k3x9",
					 "function": {"index": 0, "name": "get_temperature", "arguments": {"city": "Paris"}}}]},
				 "done": true, "done_reason": "stop"}
				"""));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().toolCalls()).extracting(ToolCall::id).containsExactly("call_k3x9");
	}

	@Test
	void callKeepsThinkingApartFromTheAnswer() {
		this.server.enqueue(json(200, "thinking.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("There are 3 letter r's in the word \"strawberry\".");
		assertThat(response.message().reasoningText()).startsWith("Let me spell it out")
			.doesNotContain("There are 3");
		assertThat(response.usage()).isEqualTo(new Usage(19, 64, 83));
	}

	@Test
	void doneReasonLengthIsACutAnswer() {
		this.server.enqueue(jsonBody(200, """
				{"model": "llama3.2", "message": {"role": "assistant", "content": "The sky"},
				 "done": true, "done_reason": "length", "prompt_eval_count": 5, "eval_count": 2}
				"""));
		assertThat(model(settings()).call(HELLO).block(TIMEOUT).finishReason()).isEqualTo(FinishReason.LENGTH);
	}

	@Test
	void requestMapsOptionsThinkKeepAliveAndFormat() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		ChatOptions options = ChatOptions.builder()
			.model("qwen3:8b")
			.temperature(0.2)
			.topP(0.9)
			.maxTokens(100)
			.stop(List.of("\n", "user:"))
			.seed(42L)
			.frequencyPenalty(1.0)
			.presencePenalty(1.5)
			.reasoningEffort("HIGH")
			.responseFormat(ResponseFormat.jsonSchema("City", CITY_SCHEMA))
			.build();
		model(settings().withKeepAlive("5m")).call(new ChatRequest(HELLO.messages(), List.of(), options))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("model").asString()).isEqualTo("qwen3:8b");
		assertThat(body.get("options")).isEqualTo(json("""
				{"temperature": 0.2, "top_p": 0.9, "num_predict": 100, "stop": ["\\n", "user:"], "seed": 42,
				 "frequency_penalty": 1.0, "presence_penalty": 1.5}
				"""));
		assertThat(body.get("think").asString()).isEqualTo("high");
		assertThat(body.get("keep_alive").asString()).isEqualTo("5m");
		assertThat(body.get("format")).isEqualTo(CITY_SCHEMA);
	}

	@Test
	void defaultOptionsApplyUnderTheRequestsOwn() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		OllamaChatSettings settings = settings()
			.withDefaultOptions(ChatOptions.builder().temperature(0.1).maxTokens(50).thinkingBudget(0).build());
		model(settings).call(new ChatRequest(HELLO.messages(), List.of(), new ChatOptions(null, 0.7, null)))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("model").asString()).isEqualTo("llama3.2");
		assertThat(body.get("options")).isEqualTo(json("{\"temperature\": 0.7, \"num_predict\": 50}"));
		assertThat(body.get("think").isBoolean()).isTrue();
		assertThat(body.get("think").asBoolean()).isFalse();
	}

	@Test
	void thinkFollowsTheThinkingBudgetAndIsAbsentWithoutReasoningOptions() throws Exception {
		assertThat(sentThink(ChatOptions.builder().thinkingBudget(2048).build())).isEqualTo(json("true"));
		assertThat(sentThink(ChatOptions.builder().thinkingBudget(0).build())).isEqualTo(json("false"));
		assertThat(sentThink(ChatOptions.builder().reasoningEffort("none").build())).isEqualTo(json("false"));
		assertThat(sentThink(ChatOptions.builder().reasoningEffort("low").thinkingBudget(0).build()))
			.isEqualTo(json("\"low\""));
		assertThat(sentThink(ChatOptions.builder().temperature(0.5).build())).isNull();
	}

	@Test
	void keepAliveInWholeSecondsIsSentAsANumber() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		model(settings().withKeepAlive("-1")).call(HELLO).block(TIMEOUT);
		JsonNode keepAlive = body(take()).get("keep_alive");
		assertThat(keepAlive.isNumber()).isTrue();
		assertThat(keepAlive.asLong()).isEqualTo(-1);
	}

	@Test
	void jsonObjectFormatIsSentAsJson() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		model(settings()).call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().responseFormat(ResponseFormat.JSON_OBJECT).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("format").asString()).isEqualTo("json");
	}

	@Test
	void requestMapsToolsHistoryImagesAndThinking() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		byte[] png = { (byte) 0x89, 'P', 'N', 'G' };
		ToolCall first = new ToolCall("call_0", "get_temperature", "{\"city\":\"New York\"}");
		ToolCall second = new ToolCall("call_1", "get_temperature", "{\"city\": \"London\"}");
		List<Message> history = List.of(new SystemMessage("Be helpful."),
				UserMessage.of("What is in this image?", Media.bytes(png, "image/png")),
				new AssistantMessage("", List.of(first, second), List.of(Reasoning.of("Two cities.")), null),
				ToolResultMessage.success(first, "22°C"), ToolResultMessage.success(second, "15°C"));
		model(settings()).call(ChatRequest.of(history, List.of(GET_TEMPERATURE))).block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("messages")).isEqualTo(json("""
				[{"role": "system", "content": "Be helpful."},
				 {"role": "user", "content": "What is in this image?", "images": ["%s"]},
				 {"role": "assistant", "content": "", "thinking": "Two cities.", "tool_calls": [
					{"id": "call_0", "type": "function",
					 "function": {"index": 0, "name": "get_temperature", "arguments": {"city": "New York"}}},
					{"id": "call_1", "type": "function",
					 "function": {"index": 1, "name": "get_temperature", "arguments": {"city": "London"}}}]},
				 {"role": "tool", "content": "22°C", "tool_name": "get_temperature", "tool_call_id": "call_0"},
				 {"role": "tool", "content": "15°C", "tool_name": "get_temperature", "tool_call_id": "call_1"}]
				""".formatted(Base64.getEncoder().encodeToString(png))));
		assertThat(body.get("tools")).isEqualTo(json("""
				[{"type": "function", "function": {"name": "get_temperature",
				  "description": "Get the current temperature for a city",
				  "parameters": {"type": "object", "required": ["city"],
				   "properties": {"city": {"type": "string", "description": "The name of the city"}}}}}]
				"""));
	}

	@Test
	void toolChoiceNoneSendsNoToolsAndRequiredSendsThem() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		this.server.enqueue(json(200, "answer.json"));
		OllamaChatModel model = model(settings());
		model.call(new ChatRequest(HELLO.messages(), List.of(GET_TEMPERATURE),
				ChatOptions.builder().toolChoice(ToolChoice.NONE).build()))
			.block(TIMEOUT);
		assertThat(body(take()).has("tools")).isFalse();
		model.call(new ChatRequest(HELLO.messages(), List.of(GET_TEMPERATURE),
				ChatOptions.builder().toolChoice(ToolChoice.REQUIRED).build()))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("tools")).hasSize(1);
		assertThat(body.has("tool_choice")).isFalse();
	}

	@Test
	void extraBodyIsMergedLastAndJoinsTheMappedOptions() throws Exception {
		this.server.enqueue(json(200, "answer.json"));
		Map<String, Object> extra = new LinkedHashMap<>();
		extra.put("options", Map.of("num_ctx", 8192, "temperature", 0.3));
		extra.put("keep_alive", "10m");
		model(settings().withKeepAlive("5m").withExtraBody(extra))
			.call(new ChatRequest(HELLO.messages(), List.of(),
					ChatOptions.builder().temperature(0.9).topP(0.5).build()))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("options")).isEqualTo(json("{\"temperature\": 0.3, \"top_p\": 0.5, \"num_ctx\": 8192}"));
		assertThat(body.get("keep_alive").asString()).isEqualTo("10m");
	}

	@Test
	void imageUrlFailsSayingOllamaNeedsTheBytesWithoutSending() {
		Media image = Media.url(URI.create("https://example.com/a.png"), "image/png");
		ChatRequest request = ChatRequest.of(List.of(UserMessage.of("What is this?", image)));
		StepVerifier.create(model(settings()).call(request))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("needs the bytes of an image, not a URL"))
			.verify(TIMEOUT);
		StepVerifier.create(model(settings()).stream(request))
			.expectError(ModelRequestException.class)
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void pdfFailsWithRequestException() {
		Media pdf = Media.bytes(new byte[] { '%', 'P', 'D', 'F' }, "application/pdf");
		ChatRequest request = ChatRequest.of(List.of(UserMessage.of("Summarize", pdf)));
		StepVerifier.create(model(settings()).call(request))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("application/pdf"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void streamSendsStreamTrueAndFoldsTextSplitAcrossTinyNetworkReads() throws Exception {
		this.server.enqueue(ndjson(read("stream-text.ndjson"), 7));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks).extracting(ChatChunk::textDelta)
			.containsExactly("The", " sky is", " blue — Rayleigh", " scattering.", "");
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().text()).isEqualTo("The sky is blue — Rayleigh scattering.");
		assertThat(folded.usage()).isEqualTo(new Usage(26, 282, 308));
		assertThat(folded.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(folded.model()).isEqualTo("llama3.2");
		JsonNode body = body(take());
		assertThat(body.get("stream").asBoolean()).isTrue();
	}

	@Test
	void streamEmitsWholeToolCallsWithFreshIndexes() {
		this.server.enqueue(ndjson(read("stream-tool-args.ndjson"), 1024));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks.stream().flatMap((chunk) -> chunk.toolCalls().stream()).map(ChatChunk.ToolCallDelta::index))
			.containsExactly(0, 1, 2);
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().toolCalls()).containsExactly(
				new ToolCall("call_0", "get_temperature", "{\"city\":\"New York\"}"),
				new ToolCall("call_1", "get_conditions", "{\"city\":\"New York\"}"),
				new ToolCall("call_2", "get_temperature", "{\"city\":\"London\"}"));
		assertThat(folded.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(folded.usage()).isEqualTo(new Usage(214, 87, 301));
	}

	@Test
	void streamKeepsThinkingApartFromTheAnswer() {
		this.server.enqueue(ndjson(read("stream-thinking.ndjson"), 5));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks.get(0).reasoning().textDelta()).isEqualTo("17 × 23");
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().reasoningText()).isEqualTo("17 × 23 = 17 × 20 + 17 × 3 = 340 + 51.");
		assertThat(folded.message().text()).isEqualTo("17 × 23 = 391");
	}

	@Test
	void streamEndingWithoutDoneIsTruncated() {
		String lines = read("stream-text.ndjson");
		String withoutLast = lines.substring(0, lines.lastIndexOf("{\"model\""));
		this.server.enqueue(ndjson(withoutLast, 1024));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectNextCount(4)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("before the answer was complete"))
			.verify(TIMEOUT);
	}

	@Test
	void streamWithoutAnyLineFails() {
		this.server.enqueue(ndjson("", 1024));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("without sending any line"))
			.verify(TIMEOUT);
	}

	@Test
	void errorLineMidStreamFailsAfterTheChunksBeforeIt() {
		this.server.enqueue(ndjson(read("stream-error.ndjson"), 1024));
		StepVerifier.create(model(settings()).stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo(" Yes"))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("."))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("an error was encountered while running the model"))
			.verify(TIMEOUT);
	}

	@Test
	void malformedLineFailsWithResponseException() {
		this.server.enqueue(ndjson("{\"model\":\"llama3.2\",\"message\":{\"content\":\"Hi\"}\n", 1024));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("malformed JSON"))
			.verify(TIMEOUT);
	}

	@Test
	void unknownModelFailsSuggestingOllamaPull() {
		this.server.enqueue(json(404, "error-404.json"));
		this.server.enqueue(json(404, "error-404.json"));
		OllamaChatModel model = model(settings());
		StepVerifier.create(model.call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("no model 'llama3.2'")
				.hasMessageContaining("ollama pull llama3.2");
			assertThat(((ModelRequestException) ex).statusCode()).isEqualTo(404);
			assertThat(((ModelRequestException) ex).isRetryable()).isFalse();
		}).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("ollama pull llama3.2"))
			.verify(TIMEOUT);
	}

	@Test
	void notFoundWithoutAModelErrorPointsAtTheBaseUrl() {
		this.server.enqueue(new MockResponse.Builder().code(404).body("404 page not found").build());
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("/api/chat")
				.hasMessageContaining("check the base URL"))
			.verify(TIMEOUT);
	}

	@Test
	void healthCheckOnAWrongAddressNamesTheListingPath() {
		this.server.enqueue(new MockResponse.Builder().code(404).body("404 page not found").build());
		StepVerifier.create(model(settings()).checkHealth())
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("/api/tags")
				.hasMessageContaining("check the base URL"))
			.verify(TIMEOUT);
	}

	@Test
	void lineOverTheLimitFailsWithoutReleasingABufferTwice() throws InterruptedException {
		String huge = "{\"message\":{\"content\":\"" + "x".repeat(16 * 1024 * 1024) + "\"},\"done\":false}\n";
		this.server.enqueue(ndjson(huge, 64 * 1024));
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
	void serverErrorIsRetryableAndKeepsOllamasMessage() {
		this.server.enqueue(json(500, "error-500.json"));
		this.server.enqueue(json(500, "error-500.json"));
		OllamaChatModel model = model(settings());
		StepVerifier.create(model.call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("the model failed to generate a response");
			assertThat(((ModelServerException) ex).isRetryable()).isTrue();
		}).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ModelServerException.class).verify(TIMEOUT);
	}

	@Test
	void unauthorizedFailsWithAuthenticationException() {
		this.server.enqueue(json(401, "error-401.json"));
		StepVerifier.create(model(settings().withApiKey("wrong")).call(HELLO))
			.expectError(ModelAuthenticationException.class)
			.verify(TIMEOUT);
	}

	@Test
	void errorBodyWithStatus200FailsWithServerException() {
		this.server.enqueue(jsonBody(200, "{\"error\":\"unexpected server status: llm server loading model\"}"));
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("llm server loading model"))
			.verify(TIMEOUT);
	}

	@Test
	void refusedConnectionFailsWithConnectionException() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		OllamaChatModel model = model(OllamaChatSettings.of("http://127.0.0.1:" + port, "llama3.2"));
		StepVerifier.create(model.call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelConnectionException.class)
				.hasMessageContaining("ollama"))
			.verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ModelConnectionException.class).verify(TIMEOUT);
		StepVerifier.create(model.checkHealth()).expectError(ModelConnectionException.class).verify(TIMEOUT);
	}

	@Test
	void slowResponseFailsWithTimeoutException() {
		this.server.enqueue(slow(json(200, "answer.json")));
		OllamaChatModel model = model(settings().withResponseTimeout(Duration.ofMillis(300)));
		StepVerifier.create(model.call(HELLO)).expectError(ModelTimeoutException.class).verify(TIMEOUT);
	}

	@Test
	void requestTimeoutOptionOverridesTheResponseTimeout() {
		this.server.enqueue(slow(json(200, "answer.json")));
		ChatRequest request = new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().timeout(Duration.ofMillis(300)).build());
		StepVerifier.create(model(settings().withResponseTimeout(Duration.ofSeconds(30))).call(request))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelTimeoutException.class)
				.hasMessageContaining("300 ms"))
			.verify(TIMEOUT);
	}

	@Test
	void streamThatStopsSendingLinesFailsWithTimeout() {
		String first = read("stream-text.ndjson").lines().findFirst().orElseThrow() + "\n";
		this.server.enqueue(stalling(first));
		OllamaChatModel model = model(settings().withResponseTimeout(Duration.ofMillis(500)));
		long start = System.nanoTime();
		StepVerifier.create(model.stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("The"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelTimeoutException.class)
				.hasMessageContaining("500 ms"))
			.verify(TIMEOUT);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void streamCompletesAtTheLastLineWhenTheServerKeepsTheBodyOpen() {
		this.server.enqueue(stalling(read("stream-text.ndjson")));
		OllamaChatModel model = model(settings().withResponseTimeout(Duration.ofSeconds(30)));
		long start = System.nanoTime();
		ChatResponse folded = fold(model.stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().text()).isEqualTo("The sky is blue — Rayleigh scattering.");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
	}

	@Test
	void sequentialStreamsReusePooledConnections() throws Exception {
		OllamaChatModel model = model(settings());
		for (int i = 0; i < 10; i++) {
			this.server.enqueue(ndjson(read("stream-text.ndjson"), 64));
		}
		for (int i = 0; i < 10; i++) {
			assertThat(fold(model.stream(HELLO).collectList().block(TIMEOUT)).message().text())
				.isEqualTo("The sky is blue — Rayleigh scattering.");
		}
		Set<Integer> connections = new HashSet<>();
		for (int i = 0; i < 10; i++) {
			connections.add(take().getConnectionIndex());
		}
		// Reactor Netty returns a connection just after the response completed, so the next
		// stream now and then opens another; one per stream would be 10
		assertThat(connections.size()).isLessThanOrEqualTo(4);
	}

	@Test
	void healthCheckListsLocalModelsWithoutChatting() throws Exception {
		this.server.enqueue(json(200, "tags.json"));
		StepVerifier.create(model(settings().withApiKey("k")).checkHealth()).expectComplete().verify(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getMethod()).isEqualTo("GET");
		assertThat(recorded.getTarget()).isEqualTo("/api/tags");
		assertThat(recorded.getHeaders().get("Authorization")).isEqualTo("Bearer k");
	}

	@Test
	void healthCheckFailsWhenOllamaRefuses() {
		this.server.enqueue(json(401, "error-401.json"));
		StepVerifier.create(model(settings()).checkHealth())
			.expectError(ModelAuthenticationException.class)
			.verify(TIMEOUT);
	}

	@Test
	void rateLimitListenerIsToldTheHeadersOfEveryResponse() {
		this.server.enqueue(withRemaining(json(200, "answer.json"), "9"));
		this.server.enqueue(withRemaining(ndjson(read("stream-text.ndjson"), 1024), "8"));
		this.server.enqueue(withRemaining(json(500, "error-500.json"), "7"));
		List<String> seen = new ArrayList<>();
		OllamaChatModel model = OllamaChatModel.builder()
			.settings(settings())
			.rateLimitListener((provider, modelName, headers) -> seen
				.add(provider + "/" + modelName + "/" + headers.getFirst("x-ratelimit-remaining-requests")))
			.build();
		model.call(HELLO).block(TIMEOUT);
		model.stream(HELLO).blockLast(TIMEOUT);
		StepVerifier.create(model.call(HELLO)).expectError(ModelServerException.class).verify(TIMEOUT);
		assertThat(seen).containsExactly("ollama/llama3.2/9", "ollama/llama3.2/8", "ollama/llama3.2/7");
	}

	@Test
	void capabilitiesNameWhatOllamaDoesNatively() {
		assertThat(model(settings()).capabilities()).containsExactlyInAnyOrder(ModelCapability.TOOLS,
				ModelCapability.STREAMING, ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING,
				ModelCapability.IMAGES);
	}

	@Test
	void settingsDefaultAndMaskTheApiKey() {
		OllamaChatSettings settings = OllamaChatSettings.of("llama3.2");
		assertThat(settings.baseUrl()).isEqualTo("http://localhost:11434");
		assertThat(settings.providerName()).isEqualTo("ollama");
		assertThat(settings.responseTimeout()).isEqualTo(Duration.ofSeconds(60));
		assertThat(settings.keepAlive()).isNull();
		assertThat(settings.withApiKey("secret-key").withHeaders(Map.of("X-Token", "secret-header")).toString())
			.doesNotContain("secret-key")
			.doesNotContain("secret-header")
			.contains("apiKey=******");
		OllamaChatModel model = model(settings.withProviderName("local"));
		assertThat(model.providerName()).isEqualTo("local");
		assertThat(model.modelName()).isEqualTo("llama3.2");
	}

	private JsonNode sentThink(ChatOptions options) throws InterruptedException {
		this.server.enqueue(json(200, "answer.json"));
		model(settings()).call(new ChatRequest(HELLO.messages(), List.of(), options)).block(TIMEOUT);
		return body(take()).get("think");
	}

	private OllamaChatSettings settings() {
		String url = this.server.url("/").toString();
		return OllamaChatSettings.of(url, "llama3.2");
	}

	private static OllamaChatModel model(OllamaChatSettings settings) {
		return OllamaChatModel.builder().settings(settings).build();
	}

	private RecordedRequest take() throws InterruptedException {
		RecordedRequest recorded = this.server.takeRequest(5, TimeUnit.SECONDS);
		assertThat(recorded).as("request").isNotNull();
		return recorded;
	}

	private static ChatResponse fold(List<ChatChunk> chunks) {
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("ollama");
		chunks.forEach(accumulator::add);
		return accumulator.toResponse();
	}

	private static JsonNode body(RecordedRequest recorded) {
		return json(recorded.getBody().string(StandardCharsets.UTF_8));
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	static String read(String name) {
		try (InputStream in = OllamaChatModelTests.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalArgumentException("No fixture " + name);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static MockResponse json(int status, String fixture) {
		return jsonBody(status, read(fixture));
	}

	static MockResponse jsonBody(int status, String body) {
		return new MockResponse.Builder().code(status).addHeader("Content-Type", "application/json").body(body).build();
	}

	static MockResponse slow(MockResponse response) {
		return new MockResponse.Builder(response).headersDelay(3, TimeUnit.SECONDS).build();
	}

	static MockResponse withRemaining(MockResponse response, String remaining) {
		return new MockResponse.Builder(response).addHeader("x-ratelimit-remaining-requests", remaining).build();
	}

	static MockResponse ndjson(String body, int chunkSize) {
		return new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/x-ndjson")
			.chunkedBody(body, chunkSize)
			.build();
	}

	/**
	 * A chunked NDJSON body that sends {@code first} and then only blank lines (which
	 * carry nothing), holding the body open until the client goes away (or 20 s pass).
	 */
	static MockResponse stalling(String first) {
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
						Thread.sleep(50);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return;
					}
					// fails once the client has gone, ending the response
					writeChunk(sink, "\n");
				}
			}

			private void writeChunk(BufferedSink sink, String text) throws IOException {
				byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
				sink.writeUtf8(Integer.toHexString(bytes.length) + "\r\n").write(bytes).writeUtf8("\r\n").flush();
			}

		};
		return new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/x-ndjson")
			.body(body)
			.removeHeader("Content-Length")
			.addHeader("Transfer-Encoding", "chunked")
			.build();
	}

}
