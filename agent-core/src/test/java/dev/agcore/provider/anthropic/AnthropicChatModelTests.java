package dev.agcore.provider.anthropic;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
import dev.agcore.model.ContextLengthExceededException;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.BufferedSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link AnthropicChatModel} against a {@link MockWebServer} replaying the
 * payloads of Anthropic's API reference.
 */
class AnthropicChatModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final ChatRequest HELLO = ChatRequest
		.of(List.of(new SystemMessage("You are terse."), new UserMessage("Hello")));

	private static final ObjectNode WEATHER_SCHEMA = (ObjectNode) json("""
			{"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}
			""");

	// the signature and redacted data of thinking.json, as Anthropic's example abbreviates them
	private static final String SIGNATURE = "WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/"
			+ "UvLEczmEsUjavL....";

	private static final String REDACTED = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2Yf"
			+ "WXGmKDxH4mPnZ5sQ7vB5URj2pLmN3kF8/dW5hR7xJ0aP1oLs9yTcMnKVf2wRpEGjH9XZaBt4UvDcPrQ...";

	private static final ToolSpec WEATHER = new ToolSpec("get_weather", "Current weather", WEATHER_SCHEMA);

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
	void callReturnsTextAndSendsHeadersAndPlainRequest() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hi! My name is Claude.");
		assertThat(response.message().toolCalls()).isEmpty();
		assertThat(response.message().reasoning()).isEmpty();
		assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(response.usage()).isEqualTo(new Usage(2095, 503, 2598));
		assertThat(response.model()).isEqualTo("claude-3-7-sonnet-20250219");
		RecordedRequest recorded = take();
		assertThat(recorded.getMethod()).isEqualTo("POST");
		assertThat(recorded.getTarget()).isEqualTo("/v1/messages");
		assertThat(recorded.getHeaders().get("x-api-key")).isEqualTo("sk-ant-test");
		assertThat(recorded.getHeaders().get("anthropic-version")).isEqualTo("2023-06-01");
		assertThat(recorded.getHeaders().get("Content-Type")).startsWith("application/json");
		assertThat(recorded.getHeaders().get("Authorization")).isNull();
		assertThat(body(recorded)).isEqualTo(json("""
				{"model": "claude-sonnet-4-5", "max_tokens": 4096,
				 "messages": [{"role": "user", "content": "Hello"}],
				 "system": [{"type": "text", "text": "You are terse."}]}
				"""));
	}

	@Test
	void baseUrlWithV1AndApiVersionExtraHeadersAndExtraBodyAreUsed() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		Map<String, Object> extraBody = new LinkedHashMap<>();
		extraBody.put("metadata", Map.of("user_id", "u-1"));
		extraBody.put("max_tokens", 77);
		AnthropicSettings settings = settings().withBaseUrl(this.server.url("/v1/").toString())
			.withApiVersion("2024-01-01")
			.withHeaders(Map.of("anthropic-beta", "prompt-caching-2024-07-31"))
			.withExtraBody(extraBody);
		model(settings).call(HELLO).block(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getTarget()).isEqualTo("/v1/messages");
		assertThat(recorded.getHeaders().get("anthropic-version")).isEqualTo("2024-01-01");
		assertThat(recorded.getHeaders().get("anthropic-beta")).isEqualTo("prompt-caching-2024-07-31");
		JsonNode body = body(recorded);
		assertThat(body.get("metadata")).isEqualTo(json("{\"user_id\": \"u-1\"}"));
		// merged last: an extra field replaces the mapped one
		assertThat(body.get("max_tokens").asInt()).isEqualTo(77);
	}

	@Test
	void defaultOptionsApplyUnderRequestOptionsAndUnsupportedOptionsAreNotSent() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ChatOptions defaults = ChatOptions.builder()
			.temperature(0.3)
			.maxTokens(100)
			.topP(0.9)
			.seed(42L)
			.frequencyPenalty(0.5)
			.presencePenalty(0.5)
			.stop(List.of("END"))
			.build();
		AnthropicChatModel model = model(settings().withDefaultOptions(defaults));
		model.call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().model("claude-opus-4-1").maxTokens(50).build()))
			.block(TIMEOUT);
		assertThat(body(take())).isEqualTo(json("""
				{"model": "claude-opus-4-1", "max_tokens": 50, "temperature": 0.3, "top_p": 0.9,
				 "stop_sequences": ["END"],
				 "messages": [{"role": "user", "content": "Hello"}],
				 "system": [{"type": "text", "text": "You are terse."}]}
				"""));
	}

	@Test
	void callParsesToolUse() {
		this.server.enqueue(Fixtures.json(200, "tool-use.json"));
		ChatResponse response = model(settings()).call(ChatRequest.of(HELLO.messages(), List.of(WEATHER)))
			.block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("I'll check the current weather in San Francisco for you.");
		assertThat(response.message().toolCalls()).hasSize(1);
		ToolCall call = response.message().toolCalls().get(0);
		assertThat(call.id()).isEqualTo("toolu_01A09q90qw90lq917835lq9");
		assertThat(call.name()).isEqualTo("get_weather");
		assertThat(json(call.arguments()))
			.isEqualTo(json("{\"location\": \"San Francisco, CA\", \"unit\": \"celsius\"}"));
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(response.usage()).isEqualTo(Usage.EMPTY);
	}

	@Test
	void callParsesParallelToolUse() {
		this.server.enqueue(Fixtures.json(200, "parallel-tool-use.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().toolCalls()).containsExactly(
				new ToolCall("toolu_01", "get_weather", "{\"location\":\"San Francisco, CA\"}"),
				new ToolCall("toolu_02", "get_time", "{\"timezone\":\"America/Los_Angeles\"}"));
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(response.usage()).isEqualTo(new Usage(1075, 112, 1187));
	}

	@Test
	void usageCountsCachedTokensAsPartOfTheInput() {
		this.server.enqueue(Fixtures.json(200, "usage-cache.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		long input = 21 + 1024 + 188086;
		assertThat(response.usage()).isEqualTo(new Usage(input, 393, input + 393, 188086, 1024, 0));
	}

	@Test
	void thinkingIsKeptApartAndSentBackUnchangedFirst() throws Exception {
		this.server.enqueue(Fixtures.json(200, "thinking.json"));
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		AnthropicChatModel model = model(settings());
		ChatOptions thinking = ChatOptions.builder().thinkingBudget(2048).temperature(0.5).build();
		ChatResponse first = model.call(new ChatRequest(List.of(new UserMessage("Are there infinitely many primes?")),
				List.of(), thinking))
			.block(TIMEOUT);
		assertThat(first.message().text()).isEqualTo("Based on my analysis...");
		assertThat(first.message().reasoning()).containsExactly(
				new Reasoning("Let me analyze this step by step...", SIGNATURE, null),
				new Reasoning("", null, REDACTED));
		JsonNode firstBody = body(take());
		assertThat(firstBody.get("thinking")).isEqualTo(json("{\"type\": \"enabled\", \"budget_tokens\": 2048}"));
		assertThat(firstBody.get("max_tokens").asInt()).isEqualTo(2048 + 4096);
		assertThat(firstBody.has("temperature")).isFalse();
		model.call(new ChatRequest(List.of(new UserMessage("Are there infinitely many primes?"), first.message(),
				new UserMessage("Why?")), List.of(), thinking))
			.block(TIMEOUT);
		JsonNode assistant = body(take()).get("messages").get(1);
		assertThat(assistant).isEqualTo(json("""
				{"role": "assistant", "content": [
					{"type": "thinking", "thinking": "Let me analyze this step by step...", "signature": "%s"},
					{"type": "redacted_thinking", "data": "%s"},
					{"type": "text", "text": "Based on my analysis..."}]}
				""".formatted(SIGNATURE, REDACTED)));
	}

	@Test
	void requestMapsSystemToolResultsImagesDocumentsAndCaching() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ToolCall weather = new ToolCall("toolu_1", "get_weather", "{\"location\":\"Paris\"}");
		ToolCall time = new ToolCall("toolu_2", "get_time", "{}");
		byte[] png = { (byte) 0x89, 'P', 'N', 'G' };
		List<Message> history = List.of(new SystemMessage("Be helpful."), SystemMessage.developer("Use metric units."),
				new UserMessage("What is in these?", List.of(Media.bytes(png, "image/png"),
						Media.url(URI.create("https://example.com/a.jpg"), "image/jpeg"),
						Media.url(URI.create("https://example.com/a.pdf"), "application/pdf")), "ann"),
				new AssistantMessage("Checking", List.of(weather, time)), ToolResultMessage.success(weather, "18°C"),
				ToolResultMessage.failure(time, "clock broken"), AssistantMessage.of("It is 18°C."),
				new UserMessage("Thanks"));
		ToolSpec clock = new ToolSpec("get_time", "", (ObjectNode) json("{\"type\": \"object\"}"));
		model(settings().withPromptCaching(true))
			.call(new ChatRequest(history, List.of(WEATHER, clock),
					ChatOptions.builder().toolChoice(ToolChoice.REQUIRED).build()))
			.block(TIMEOUT);
		assertThat(body(take())).isEqualTo(json("""
				{"model": "claude-sonnet-4-5", "max_tokens": 4096,
				 "messages": [
					{"role": "user", "content": [
						{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}},
						{"type": "image", "source": {"type": "url", "url": "https://example.com/a.jpg"}},
						{"type": "document", "source": {"type": "url", "url": "https://example.com/a.pdf"}},
						{"type": "text", "text": "What is in these?"}]},
					{"role": "assistant", "content": [
						{"type": "text", "text": "Checking"},
						{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"location": "Paris"}},
						{"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {}}]},
					{"role": "user", "content": [
						{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18°C"},
						{"type": "tool_result", "tool_use_id": "toolu_2", "content": "clock broken",
						 "is_error": true}]},
					{"role": "assistant", "content": [{"type": "text", "text": "It is 18°C."}]},
					{"role": "user", "content": "Thanks"}],
				 "system": [
					{"type": "text", "text": "Be helpful."},
					{"type": "text", "text": "Use metric units.", "cache_control": {"type": "ephemeral"}}],
				 "tools": [
					{"name": "get_weather", "description": "Current weather", "input_schema":
						{"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}},
					{"name": "get_time", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}}],
				 "tool_choice": {"type": "any"}}
				"""));
	}

	@ParameterizedTest
	@CsvSource({ "auto, {\"type\": \"auto\"}", "none, {\"type\": \"none\"}", "required, {\"type\": \"any\"}",
			"get_weather, '{\"type\": \"tool\", \"name\": \"get_weather\"}'" })
	void toolChoiceIsMapped(String choice, String expected) throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		model(settings()).call(new ChatRequest(HELLO.messages(), List.of(WEATHER),
				ChatOptions.builder().toolChoice(ToolChoice.parse(choice)).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("tool_choice")).isEqualTo(json(expected));
	}

	@Test
	void mediaOtherThanImagesAndPdfFailsNamingTheType() {
		ChatRequest request = ChatRequest
			.of(List.of(UserMessage.of("Listen", Media.bytes(new byte[] { 1 }, "audio/wav"))));
		StepVerifier.create(model(settings()).call(request))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("audio/wav"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void structuredOutputIsForcedThroughTheAnswerToolAndReturnedAsText() throws Exception {
		this.server.enqueue(Fixtures.json(200, "structured-answer.json"));
		ObjectNode schema = (ObjectNode) json("""
				{"type": "object", "properties": {"city": {"type": "string"}, "temperature": {"type": "integer"}}}
				""");
		ChatOptions options = ChatOptions.builder()
			.responseFormat(ResponseFormat.jsonSchema("Weather", schema))
			.build();
		ChatResponse response = model(settings())
			.call(new ChatRequest(List.of(new UserMessage("Weather in Paris?")), List.of(), options))
			.block(TIMEOUT);
		assertThat(json(response.message().text())).isEqualTo(json("{\"city\": \"Paris\", \"temperature\": 18}"));
		assertThat(response.message().toolCalls()).isEmpty();
		assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
		JsonNode body = body(take());
		assertThat(body.get("tools")).isEqualTo(json("""
				[{"name": "final_answer", "description": "Give the final answer (Weather) in this shape.",
				  "input_schema": {"type": "object", "properties": {"city": {"type": "string"},
				  "temperature": {"type": "integer"}}}}]
				"""));
		assertThat(body.get("tool_choice")).isEqualTo(json("{\"type\": \"any\"}"));
		assertThat(body.has("system")).isFalse();
	}

	@Test
	void structuredOutputWithOtherToolsLetsTheModelChooseAndSaysHowToAnswer() throws Exception {
		this.server.enqueue(Fixtures.json(200, "tool-use.json"));
		ChatOptions options = ChatOptions.builder()
			.responseFormat(ResponseFormat.jsonSchema("Weather", (ObjectNode) json("{\"type\": \"object\"}")))
			.build();
		ChatResponse response = model(settings()).call(new ChatRequest(HELLO.messages(), List.of(WEATHER), options))
			.block(TIMEOUT);
		assertThat(response.message().toolCalls()).extracting(ToolCall::name).containsExactly("get_weather");
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		JsonNode body = body(take());
		assertThat(body.get("tools").size()).isEqualTo(2);
		assertThat(body.get("tools").get(1).get("name").asString()).isEqualTo("final_answer");
		assertThat(body.get("tool_choice")).isEqualTo(json("{\"type\": \"auto\"}"));
		assertThat(body.get("system").get(1).get("text").asString()).contains("final_answer");
	}

	@Test
	void streamedStructuredOutputIsText() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-structured.sse")));
		ChatOptions options = ChatOptions.builder()
			.responseFormat(ResponseFormat.jsonSchema("Weather", (ObjectNode) json("{\"type\": \"object\"}")))
			.build();
		List<ChatChunk> chunks = model(settings())
			.stream(new ChatRequest(List.of(new UserMessage("Weather in Paris?")), List.of(), options))
			.collectList()
			.block(TIMEOUT);
		assertThat(chunks).allSatisfy((chunk) -> assertThat(chunk.toolCalls()).isEmpty());
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().text()).isEqualTo("{\"city\": \"Paris\", \"temperature\": 18}");
		assertThat(folded.finishReason()).isEqualTo(FinishReason.STOP);
	}

	@Test
	void streamEmitsTextChunksAndUsage() throws Exception {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-text.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks).extracting(ChatChunk::textDelta).containsSubsequence("Hello", "!");
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().text()).isEqualTo("Hello!");
		assertThat(folded.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(folded.usage()).isEqualTo(new Usage(25, 15, 40));
		assertThat(folded.model()).isEqualTo("claude-opus-4-1-20250805");
		RecordedRequest recorded = take();
		assertThat(recorded.getHeaders().get("Accept")).isEqualTo("text/event-stream");
		assertThat(body(recorded).get("stream").asBoolean()).isTrue();
	}

	@Test
	void streamToolArgumentsInManyPiecesFoldIntoOneCall() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "text/event-stream")
			.chunkedBody(Fixtures.read("stream-tool-args.sse"), 7)
			.build());
		List<ChatChunk> chunks = model(settings()).stream(ChatRequest.of(HELLO.messages(), List.of(WEATHER)))
			.collectList()
			.block(TIMEOUT);
		assertThat(chunks.stream().flatMap((chunk) -> chunk.toolCalls().stream())).hasSize(9)
			.allSatisfy((delta) -> assertThat(delta.index()).isZero());
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().text()).isEqualTo("Okay, let's check the weather for San Francisco, CA:");
		assertThat(folded.message().toolCalls()).containsExactly(new ToolCall("toolu_01T1x1fJ34qAmk2tNTrN7Up6",
				"get_weather", "{\"location\": \"San Francisco, CA\", \"unit\": \"fahrenheit\"}"));
		assertThat(folded.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(folded.usage()).isEqualTo(new Usage(472, 89, 561));
	}

	@Test
	void streamedCallOfAToolWithoutParametersHasAnEmptyObjectAsArgumentsAndGoesBack() throws Exception {
		// a tool without parameters streams its input as one empty input_json_delta
		this.server.enqueue(Fixtures.sse("""
				event: message_start
				data: {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", \
				"content": [], "model": "claude-sonnet-4-5", "usage": {"input_tokens": 10, "output_tokens": 1}}}

				event: content_block_start
				data: {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", \
				"id": "toolu_1", "name": "get_time", "input": {}}}

				event: content_block_delta
				data: {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": ""}}

				event: content_block_stop
				data: {"type": "content_block_stop", "index": 0}

				event: message_delta
				data: {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}}

				event: message_stop
				data: {"type": "message_stop"}

				"""));
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		AnthropicChatModel model = model(settings());
		ChatResponse folded = fold(model.stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().toolCalls()).containsExactly(new ToolCall("toolu_1", "get_time", "{}"));

		model.call(ChatRequest.of(List.of(new UserMessage("What time is it?"), folded.message(),
				ToolResultMessage.success(folded.message().toolCalls().get(0), "12:00")))).block(TIMEOUT);

		take();
		JsonNode call = body(take()).get("messages").get(1).get("content").get(0);
		assertThat(call.get("type").asString()).isEqualTo("tool_use");
		assertThat(call.get("input").isObject()).isTrue();
		assertThat(call.get("input").isEmpty()).isTrue();
	}

	@Test
	void streamParallelToolUseNumbersCallsFromZero() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-parallel-tool-use.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks.stream().flatMap((chunk) -> chunk.toolCalls().stream()).map(ChatChunk.ToolCallDelta::index))
			.containsExactly(0, 0, 0, 1, 1, 1);
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().text()).isEqualTo("I'll check both.");
		assertThat(folded.message().toolCalls()).containsExactly(
				new ToolCall("toolu_01", "get_weather", "{\"location\": \"San Francisco, CA\"}"),
				new ToolCall("toolu_02", "get_time", "{\"timezone\": \"America/Los_Angeles\"}"));
		assertThat(folded.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(folded.usage()).isEqualTo(new Usage(1075, 112, 1187));
	}

	@Test
	void sequentialStreamsReusePooledConnections() throws Exception {
		AnthropicChatModel model = model(settings());
		for (int i = 0; i < 10; i++) {
			this.server.enqueue(new MockResponse.Builder().code(200)
				.addHeader("Content-Type", "text/event-stream")
				.chunkedBody(Fixtures.read("stream-text.sse"), 1024)
				.build());
		}
		for (int i = 0; i < 10; i++) {
			assertThat(fold(model.stream(HELLO).collectList().block(TIMEOUT)).message().text()).isEqualTo("Hello!");
		}
		Set<Integer> connections = new HashSet<>();
		for (int i = 0; i < 10; i++) {
			connections.add(take().getConnectionIndex());
		}
		// Reactor Netty returns a connection just after the response completed, so the next
		// call now and then opens another; one connection per call would be 10
		assertThat(connections).hasSizeLessThanOrEqualTo(4);
	}

	@Test
	void streamThinkingArrivesAsReasoningDeltasWithSignature() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-thinking.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		List<ChatChunk.ReasoningDelta> reasoning = new ArrayList<>();
		chunks.stream().filter((chunk) -> chunk.reasoning() != null).forEach((chunk) -> {
			assertThat(chunk.textDelta()).isEmpty();
			reasoning.add(chunk.reasoning());
		});
		assertThat(reasoning).hasSizeGreaterThan(6).allSatisfy((delta) -> assertThat(delta.index()).isZero());
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().text()).isEqualTo("27 * 453 = 12,231");
		assertThat(folded.message().reasoning()).hasSize(1);
		Reasoning block = folded.message().reasoning().get(0);
		assertThat(block.text()).startsWith("Let me solve this step by step:").endsWith("= 12,231");
		assertThat(block.signature()).isEqualTo("EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...");
		assertThat(folded.usage()).isEqualTo(Usage.EMPTY);
	}

	@Test
	void streamUsageCountsCachedTokens() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-usage-cache.sse")));
		ChatResponse folded = fold(model(settings()).stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.usage()).isEqualTo(new Usage(849 + 2048, 47, 849 + 2048 + 47, 2048, 0, 0));
	}

	@Test
	void streamWithoutMessageStopFails() {
		String events = Fixtures.read("stream-text.sse");
		this.server.enqueue(Fixtures.sse(events.substring(0, events.indexOf("event: message_stop"))));
		StepVerifier.create(model(settings()).stream(HELLO))
			.thenConsumeWhile((chunk) -> true)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("no message_stop"))
			.verify(TIMEOUT);
	}

	@Test
	void streamWithoutAnyEventFails() {
		this.server.enqueue(Fixtures.sse("event: ping\ndata: {\"type\": \"ping\"}\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("without sending any event"))
			.verify(TIMEOUT);
	}

	@Test
	void overloadedErrorEventMidStreamIsRetryableServerError() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-error.sse")));
		StepVerifier.create(model(settings()).stream(HELLO))
			.thenConsumeWhile((chunk) -> !"Hello".equals(chunk.textDelta()))
			.expectNextMatches((chunk) -> "Hello".equals(chunk.textDelta()))
			.expectErrorSatisfies((ex) -> {
				assertThat(ex).isInstanceOf(ModelServerException.class).hasMessageContaining("Overloaded");
				assertThat(((ModelException) ex).statusCode()).isEqualTo(529);
				assertThat(((ModelException) ex).isRetryable()).isTrue();
			})
			.verify(TIMEOUT);
	}

	@ParameterizedTest
	@CsvSource({ "rate_limit_error, dev.agcore.model.ModelRateLimitException, true",
			"api_error, dev.agcore.model.ModelServerException, true",
			"invalid_request_error, dev.agcore.model.ModelRequestException, false",
			"authentication_error, dev.agcore.model.ModelAuthenticationException, false" })
	void errorEventsAreClassifiedByType(String type, Class<?> exception, boolean retryable) {
		this.server.enqueue(Fixtures.sse("event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"" + type
				+ "\", \"message\": \"went wrong\"}}\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(exception).hasMessageContaining("went wrong");
			assertThat(((ModelException) ex).isRetryable()).isEqualTo(retryable);
		}).verify(TIMEOUT);
	}

	// every error type of Anthropic's error reference, with its status
	@ParameterizedTest
	@CsvSource({ "400, invalid_request_error, dev.agcore.model.ModelRequestException, false",
			"401, authentication_error, dev.agcore.model.ModelAuthenticationException, false",
			"402, billing_error, dev.agcore.model.ModelRequestException, false",
			"403, permission_error, dev.agcore.model.ModelAuthenticationException, false",
			"404, not_found_error, dev.agcore.model.ModelRequestException, false",
			"413, request_too_large, dev.agcore.model.ModelRequestException, false",
			"429, rate_limit_error, dev.agcore.model.ModelRateLimitException, true",
			"500, api_error, dev.agcore.model.ModelServerException, true",
			"504, timeout_error, dev.agcore.model.ModelServerException, true",
			"529, overloaded_error, dev.agcore.model.ModelServerException, true" })
	void documentedErrorsAreClassifiedAlikeAsStatusAndAsStreamEvent(int status, String type, Class<?> exception,
			boolean retryable) {
		String error = "{\"type\": \"error\", \"error\": {\"type\": \"" + type
				+ "\", \"message\": \"went wrong\"}, \"request_id\": \"req_011CSHoEeqs5C35K2UUqR7Fz\"}";
		this.server.enqueue(new MockResponse.Builder().code(status)
			.addHeader("Content-Type", "application/json")
			.body(error)
			.build());
		this.server.enqueue(Fixtures.sse("event: error\ndata: " + error + "\n\n"));
		AnthropicChatModel model = model(settings());
		StepVerifier.create(model.call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(exception).hasMessageContaining("went wrong");
			assertThat(((ModelException) ex).statusCode()).isEqualTo(status);
			assertThat(((ModelException) ex).isRetryable()).isEqualTo(retryable);
		}).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(exception).hasMessageContaining("went wrong");
			assertThat(((ModelException) ex).statusCode()).isEqualTo(status);
			assertThat(((ModelException) ex).isRetryable()).isEqualTo(retryable);
		}).verify(TIMEOUT);
	}

	@Test
	void http429IsRateLimitWithRetryAfter() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(429, "error-429.json"))
			.addHeader("retry-after", "20")
			.build());
		StepVerifier.create(model(settings()).call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelRateLimitException.class).hasMessageContaining("per-minute rate limit");
			assertThat(((ModelException) ex).retryAfter()).isEqualTo(Duration.ofSeconds(20));
			assertThat(((ModelException) ex).isRetryable()).isTrue();
		}).verify(TIMEOUT);
	}

	@Test
	void http529OverloadedIsRetryableServerError() {
		this.server.enqueue(Fixtures.json(529, "error-529.json"));
		this.server.enqueue(Fixtures.json(529, "error-529.json"));
		AnthropicChatModel model = model(settings());
		StepVerifier.create(model.call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelServerException.class).hasMessageContaining("Overloaded");
			assertThat(((ModelException) ex).statusCode()).isEqualTo(529);
			assertThat(((ModelException) ex).isRetryable()).isTrue();
		}).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ModelServerException.class).verify(TIMEOUT);
	}

	@Test
	void http401IsAuthenticationError() {
		this.server.enqueue(Fixtures.json(401, "error-401.json"));
		StepVerifier.create(model(settings()).call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelAuthenticationException.class).hasMessageContaining("invalid x-api-key");
			assertThat(((ModelException) ex).provider()).isEqualTo("anthropic");
			assertThat(((ModelException) ex).isRetryable()).isFalse();
		}).verify(TIMEOUT);
	}

	@Test
	void http400IsRequestError() {
		this.server.enqueue(Fixtures.json(400, "error-400.json"));
		StepVerifier.create(model(settings()).call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelRequestException.class)
				.isNotInstanceOf(ContextLengthExceededException.class)
				.hasMessageContaining("roles must alternate");
			assertThat(((ModelException) ex).isRetryable()).isFalse();
		}).verify(TIMEOUT);
	}

	@Test
	void promptTooLongIsContextLengthExceeded() {
		this.server.enqueue(Fixtures.json(400, "error-context-length.json"));
		this.server.enqueue(Fixtures.json(400, "error-context-length.json"));
		AnthropicChatModel model = model(settings());
		StepVerifier.create(model.call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ContextLengthExceededException.class)
				.hasMessageContaining("prompt is too long"))
			.verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ContextLengthExceededException.class).verify(TIMEOUT);
	}

	@Test
	void errorBodyWithStatus200IsMappedByType() {
		this.server.enqueue(Fixtures.json(200, "error-529.json"));
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("Overloaded"))
			.verify(TIMEOUT);
	}

	@Test
	void streamAnsweredWithAJsonErrorBodyKeepsTheProvidersMessage() {
		this.server.enqueue(Fixtures.json(200, "error-529.json"));
		List<String> seen = new ArrayList<>();
		AnthropicChatModel model = AnthropicChatModel.builder()
			.settings(settings())
			.rateLimitListener((provider, modelName, headers) -> seen.add(provider))
			.build();
		StepVerifier.create(model.stream(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelServerException.class).hasMessageContaining("Overloaded");
			assertThat(((ModelException) ex).isRetryable()).isTrue();
		}).verify(TIMEOUT);
		assertThat(seen).containsExactly("anthropic");
	}

	@Test
	void toolCallWithArgumentsThatAreNotAnObjectFailsBeforeSending() {
		ToolCall broken = new ToolCall("toolu_1", "get_weather", "[1, 2]");
		ChatRequest request = ChatRequest.of(List.of(new UserMessage("Hi"), AssistantMessage.of(List.of(broken)),
				ToolResultMessage.success(broken, "ok")));
		StepVerifier.create(model(settings()).call(request))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("toolu_1"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void answerSchemaThatIsNotAnObjectFailsBeforeSending() {
		ChatOptions options = ChatOptions.builder()
			.responseFormat(ResponseFormat.jsonSchema("Names", (ObjectNode) json("{\"type\": \"array\"}")))
			.build();
		StepVerifier.create(model(settings()).call(new ChatRequest(HELLO.messages(), List.of(), options)))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("JSON object"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void thinkingWithAnAnswerSchemaCannotForceTheToolAndSaysHowToAnswer() throws Exception {
		this.server.enqueue(Fixtures.json(200, "structured-answer.json"));
		ChatOptions options = ChatOptions.builder()
			.thinkingBudget(1024)
			.responseFormat(ResponseFormat.jsonSchema("Weather", (ObjectNode) json("{\"type\": \"object\"}")))
			.build();
		model(settings()).call(new ChatRequest(List.of(new UserMessage("Weather?")), List.of(), options))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("tool_choice")).isEqualTo(json("{\"type\": \"auto\"}"));
		assertThat(body.get("system").get(0).get("text").asString()).contains("final_answer");
	}

	@Test
	void toolChoiceNoneWithAnAnswerSchemaOffersOnlyTheAnswerToolForcedUnlessThinking() throws Exception {
		this.server.enqueue(Fixtures.json(200, "structured-answer.json"));
		this.server.enqueue(Fixtures.json(200, "structured-answer.json"));
		ChatOptions none = ChatOptions.builder()
			.toolChoice(ToolChoice.NONE)
			.responseFormat(ResponseFormat.jsonSchema("Weather", (ObjectNode) json("{\"type\": \"object\"}")))
			.build();
		model(settings()).call(new ChatRequest(HELLO.messages(), List.of(WEATHER), none)).block(TIMEOUT);
		JsonNode forced = body(take());
		assertThat(forced.get("tools").size()).isEqualTo(1);
		assertThat(forced.get("tools").get(0).get("name").asString()).isEqualTo("final_answer");
		assertThat(forced.get("tool_choice")).isEqualTo(json("{\"type\": \"tool\", \"name\": \"final_answer\"}"));
		model(settings()).call(new ChatRequest(HELLO.messages(), List.of(WEATHER), none.mutate().thinkingBudget(1024).build()))
			.block(TIMEOUT);
		JsonNode thinking = body(take());
		assertThat(thinking.get("tools").size()).isEqualTo(1);
		assertThat(thinking.get("tool_choice")).isEqualTo(json("{\"type\": \"auto\"}"));
	}

	@Test
	void rateLimitListenerSeesHeadersOfSuccessesAndErrors() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(200, "answer.json"))
			.addHeader("anthropic-ratelimit-requests-remaining", "49")
			.build());
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(429, "error-429.json"))
			.addHeader("anthropic-ratelimit-requests-remaining", "0")
			.build());
		List<String> seen = new ArrayList<>();
		AnthropicChatModel model = AnthropicChatModel.builder()
			.settings(settings())
			.rateLimitListener((provider, modelName, headers) -> seen
				.add(provider + "/" + modelName + "/" + headers.getFirst("anthropic-ratelimit-requests-remaining")))
			.build();
		model.call(HELLO).block(TIMEOUT);
		StepVerifier.create(model.call(HELLO)).expectError(ModelRateLimitException.class).verify(TIMEOUT);
		assertThat(seen).containsExactly("anthropic/claude-sonnet-4-5/49", "anthropic/claude-sonnet-4-5/0");
	}

	@Test
	void failingRateLimitListenerDoesNotFailTheCall() {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		AnthropicChatModel model = AnthropicChatModel.builder().settings(settings()).rateLimitListener((p, m, h) -> {
			throw new IllegalStateException("bug");
		}).build();
		assertThat(model.call(HELLO).block(TIMEOUT).message().text()).isEqualTo("Hi! My name is Claude.");
	}

	@Test
	void checkHealthListsOneModel() throws Exception {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"data\": [{\"type\": \"model\", \"id\": \"claude-sonnet-4-5\"}], \"has_more\": true}")
			.build());
		this.server.enqueue(Fixtures.json(401, "error-401.json"));
		AnthropicChatModel model = model(settings());
		StepVerifier.create(model.checkHealth()).expectComplete().verify(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getMethod()).isEqualTo("GET");
		assertThat(recorded.getTarget()).isEqualTo("/v1/models?limit=1");
		assertThat(recorded.getHeaders().get("x-api-key")).isEqualTo("sk-ant-test");
		assertThat(recorded.getHeaders().get("anthropic-version")).isEqualTo("2023-06-01");
		StepVerifier.create(model.checkHealth()).expectError(ModelAuthenticationException.class).verify(TIMEOUT);
	}

	@Test
	void streamOfOnlyPingsFailsWithTimeout() {
		this.server.enqueue(sseForever("event: ping\ndata: {\"type\": \"ping\"}\n\n", Duration.ofMillis(50)));
		AnthropicChatModel model = model(settings().withResponseTimeout(Duration.ofMillis(500)));
		StepVerifier.create(model.stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelTimeoutException.class)
				.hasMessageContaining("500 ms"))
			.verify(TIMEOUT);
	}

	@Test
	void requestTimeoutOptionReplacesResponseTimeout() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(200, "answer.json"))
			.headersDelay(3, TimeUnit.SECONDS)
			.build());
		ChatRequest request = new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().timeout(Duration.ofMillis(300)).build());
		StepVerifier.create(model(settings()).call(request)).expectError(ModelTimeoutException.class).verify(TIMEOUT);
	}

	@Test
	void capabilitiesIncludeEverythingAnthropicDoesNatively() {
		assertThat(model(settings()).capabilities()).containsExactlyInAnyOrder(ModelCapability.TOOLS,
				ModelCapability.STREAMING, ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING,
				ModelCapability.IMAGES, ModelCapability.PDF, ModelCapability.PROMPT_CACHING);
	}

	@Test
	void settingsHaveDefaultsAndHideTheKey() {
		AnthropicSettings settings = AnthropicSettings.of("sk-ant-secret", "claude-sonnet-4-5");
		assertThat(settings.providerName()).isEqualTo("anthropic");
		assertThat(settings.baseUrl()).isEqualTo("https://api.anthropic.com");
		assertThat(settings.apiVersion()).isEqualTo("2023-06-01");
		assertThat(settings.responseTimeout()).isEqualTo(Duration.ofSeconds(60));
		assertThat(settings.withHeaders(Map.of("x-secret", "v")).toString()).doesNotContain("sk-ant-secret")
			.contains("apiKey=******");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> AnthropicSettings.of(" ", "claude-sonnet-4-5"));
	}

	private static MockResponse sseForever(String repeated, Duration interval) {
		MockResponseBody body = new MockResponseBody() {

			@Override
			public long getContentLength() {
				return -1;
			}

			@Override
			public void writeTo(BufferedSink sink) throws IOException {
				long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
				byte[] bytes = repeated.getBytes(StandardCharsets.UTF_8);
				while (System.nanoTime() < deadline) {
					sink.writeUtf8(Integer.toHexString(bytes.length) + "\r\n").write(bytes).writeUtf8("\r\n").flush();
					try {
						Thread.sleep(interval.toMillis());
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return;
					}
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

	private AnthropicSettings settings() {
		return AnthropicSettings.of("sk-ant-test", "claude-sonnet-4-5").withBaseUrl(this.server.url("/").toString());
	}

	private static AnthropicChatModel model(AnthropicSettings settings) {
		return AnthropicChatModel.builder().settings(settings).build();
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
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("anthropic");
		chunks.forEach(accumulator::add);
		return accumulator.toResponse();
	}

}
