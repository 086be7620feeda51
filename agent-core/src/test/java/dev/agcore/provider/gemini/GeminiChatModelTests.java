package dev.agcore.provider.gemini;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
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

/**
 * Tests for {@link GeminiChatModel} against a {@link MockWebServer} replaying the shapes
 * of Google's API reference.
 */
class GeminiChatModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final ChatRequest HELLO = ChatRequest
		.of(List.of(new SystemMessage("You are terse."), new UserMessage("Explain how AI works")));

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
	void callReturnsTextAndSendsKeyInHeaderNotUrl() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		List<HttpHeaders> seen = new ArrayList<>();
		GeminiChatModel model = GeminiChatModel.builder()
			.settings(settings())
			.rateLimitListener((provider, requested, headers) -> seen.add(headers))
			.build();
		ChatResponse response = model.call(HELLO).block(TIMEOUT);
		assertThat(response.message().text())
			.isEqualTo("AI learns patterns from data to make predictions or decisions.");
		assertThat(response.message().toolCalls()).isEmpty();
		assertThat(response.message().reasoning()).isEmpty();
		assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(response.usage()).isEqualTo(new Usage(8, 12, 20));
		assertThat(response.model()).isEqualTo("gemini-2.0-flash");
		assertThat(seen).hasSize(1);
		RecordedRequest recorded = take();
		assertThat(recorded.getMethod()).isEqualTo("POST");
		assertThat(recorded.getTarget()).isEqualTo("/v1beta/models/gemini-2.0-flash:generateContent");
		assertThat(recorded.getTarget()).doesNotContain("key=");
		assertThat(recorded.getHeaders().get("x-goog-api-key")).isEqualTo("gm-test");
		assertThat(recorded.getHeaders().get("Authorization")).isNull();
		assertThat(body(recorded)).isEqualTo(json("""
				{"contents": [{"role": "user", "parts": [{"text": "Explain how AI works"}]}],
				 "systemInstruction": {"parts": [{"text": "You are terse."}]}}
				"""));
	}

	@Test
	void requestMapsHistoryToolsToolChoiceGenerationConfigAndMedia() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ObjectNode schema = (ObjectNode) json("""
				{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
				 "additionalProperties": false,
				 "properties": {"city": {"type": "string", "format": "hostname"},
				                "unit": {"type": ["string", "null"], "enum": ["c", "f"]}},
				 "required": ["city"]}
				""");
		ToolCall first = new ToolCall("call_0", "get_weather", "{\"city\":\"Paris\"}");
		ToolCall second = new ToolCall("call_1", "get_time", "{\"city\":\"Paris\"}");
		List<Message> history = List.of(SystemMessage.developer("Be helpful."),
				new UserMessage("Weather and time in Paris?",
						List.of(Media.bytes(new byte[] { 1, 2, 3 }, "image/png"),
								Media.url(URI.create("https://generativelanguage.googleapis.com/v1beta/files/abc"),
										"application/pdf")),
						"ann"),
				new AssistantMessage("Let me check.", List.of(first, second)),
				ToolResultMessage.success(second, "14:05"), ToolResultMessage.success(first, "{\"temperature\": 18}"),
				new UserMessage("And tomorrow?"), AssistantMessage.of(List.of(new ToolCall("fc-9", "get_weather", "{}"))),
				ToolResultMessage.failure(new ToolCall("fc-9", "get_weather", "{}"), "city is required"));
		ChatOptions options = ChatOptions.builder()
			.temperature(0.3)
			.topP(0.9)
			.maxTokens(256)
			.stop(List.of("END"))
			.seed(42L)
			.presencePenalty(0.1)
			.frequencyPenalty(0.2)
			.thinkingBudget(1024)
			.toolChoice(ToolChoice.tool("get_weather"))
			.build();
		model(settings().withExtraBody(Map.of("generationConfig", Map.of("topK", 40), "safetySettings",
				List.of(Map.of("category", "HARM_CATEGORY_HARASSMENT", "threshold", "BLOCK_NONE")))))
			.call(new ChatRequest(history, List.of(new ToolSpec("get_weather", "Current weather", schema),
					new ToolSpec("get_time", "", (ObjectNode) json("{\"type\": \"object\", \"properties\": {}}"))),
					options))
			.block(TIMEOUT);
		assertThat(body(take())).isEqualTo(json("""
				{"systemInstruction": {"parts": [{"text": "Be helpful."}]},
				 "contents": [
					{"role": "user", "parts": [{"text": "Weather and time in Paris?"},
						{"inlineData": {"mimeType": "image/png", "data": "AQID"}},
						{"fileData": {"mimeType": "application/pdf",
						              "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc"}}]},
					{"role": "model", "parts": [{"text": "Let me check."},
						{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
						{"functionCall": {"name": "get_time", "args": {"city": "Paris"}}}]},
					{"role": "user", "parts": [
						{"functionResponse": {"name": "get_weather", "response": {"temperature": 18}}},
						{"functionResponse": {"name": "get_time", "response": {"result": "14:05"}}}]},
					{"role": "user", "parts": [{"text": "And tomorrow?"}]},
					{"role": "model", "parts": [{"functionCall": {"id": "fc-9", "name": "get_weather", "args": {}}}]},
					{"role": "user", "parts": [
						{"functionResponse": {"id": "fc-9", "name": "get_weather",
						                      "response": {"error": "city is required"}}}]}],
				 "tools": [{"functionDeclarations": [
					{"name": "get_weather", "description": "Current weather",
					 "parameters": {"type": "object", "properties": {
						"city": {"type": "string"},
						"unit": {"type": "string", "enum": ["c", "f"], "nullable": true}},
					 "required": ["city"]}},
					{"name": "get_time"}]}],
				 "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}},
				 "generationConfig": {"temperature": 0.3, "topP": 0.9, "maxOutputTokens": 256,
					"stopSequences": ["END"], "seed": 42, "presencePenalty": 0.1, "frequencyPenalty": 0.2,
					"thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": true}, "topK": 40},
				 "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]}
				"""));
	}

	@ParameterizedTest
	@CsvSource({ "auto, AUTO", "none, NONE", "required, ANY" })
	void toolChoiceMapsToFunctionCallingMode(String choice, String mode) throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ToolSpec tool = new ToolSpec("f", "d", (ObjectNode) json("{\"type\":\"object\",\"properties\":{\"a\":{}}}"));
		model(settings()).call(new ChatRequest(HELLO.messages(), List.of(tool),
				ChatOptions.builder().toolChoice(ToolChoice.parse(choice)).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("toolConfig"))
			.isEqualTo(json("{\"functionCallingConfig\": {\"mode\": \"" + mode + "\"}}"));
	}

	@Test
	void defaultOptionsApplyUnderRequestOptionsAndModelOptionChangesTheUrl() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		GeminiSettings settings = settings()
			.withDefaultOptions(ChatOptions.builder().temperature(0.2).maxTokens(100).thinkingBudget(0).build());
		model(settings).call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().model("gemini-2.5-pro").temperature(0.9).build()))
			.block(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getTarget()).isEqualTo("/v1beta/models/gemini-2.5-pro:generateContent");
		assertThat(body(recorded).get("generationConfig")).isEqualTo(json("""
				{"temperature": 0.9, "maxOutputTokens": 100, "thinkingConfig": {"thinkingBudget": 0}}
				"""));
	}

	@Test
	void structuredOutputSendsJsonMimeTypeAndConvertedSchema() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ObjectNode schema = (ObjectNode) json("""
				{"type": "object", "additionalProperties": false,
				 "properties": {"recipes": {"type": "array", "items": {"$ref": "#/$defs/Recipe"}}},
				 "required": ["recipes"],
				 "$defs": {"Recipe": {"type": "object",
				   "properties": {"name": {"type": "string"}, "kind": {"const": "dessert"}}}}}
				""");
		GeminiChatModel model = model(settings());
		model.call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().responseFormat(ResponseFormat.jsonSchema("Recipes", schema)).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("generationConfig")).isEqualTo(json("""
				{"responseMimeType": "application/json",
				 "responseSchema": {"type": "object",
				   "properties": {"recipes": {"type": "array", "items": {"type": "object",
				     "properties": {"name": {"type": "string"}, "kind": {"type": "string", "enum": ["dessert"]}}}}},
				   "required": ["recipes"]}}
				"""));
		model.call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().responseFormat(ResponseFormat.JSON_OBJECT).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("generationConfig"))
			.isEqualTo(json("{\"responseMimeType\": \"application/json\"}"));
	}

	@Test
	void structuredAnswerIsTheJsonText() throws Exception {
		this.server.enqueue(Fixtures.json(200, "structured-output.json"));
		ObjectNode schema = (ObjectNode) json("""
				{"type": "array", "items": {"type": "object", "properties": {
					"recipeName": {"type": "string"}, "ingredients": {"type": "array", "items": {"type": "string"}}}}}
				""");
		ChatResponse response = model(settings()).call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().responseFormat(ResponseFormat.jsonSchema("Recipes", schema)).build()))
			.block(TIMEOUT);
		assertThat(json(response.message().text()).get(1).get("recipeName").asString())
			.isEqualTo("Oatmeal Raisin Cookies");
		assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(body(take()).at("/generationConfig/responseSchema/items/properties/ingredients"))
			.isEqualTo(json("{\"type\": \"array\", \"items\": {\"type\": \"string\"}}"));
	}

	@Test
	void streamThatStopsSendingEventsButKeepsTheConnectionFailsWithTimeout() {
		String first = Fixtures.read("stream-text.sse");
		first = first.substring(0, first.indexOf("data:", 10));
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "text/event-stream")
			.body(first + ": keep-alive\n\n".repeat(300))
			.throttleBody(first.length() + 15, 200, TimeUnit.MILLISECONDS)
			.build());
		StepVerifier.create(model(settings().withResponseTimeout(Duration.ofMillis(800))).stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("Once upon"))
			.expectError(ModelTimeoutException.class)
			.verify(TIMEOUT);
	}

	@Test
	void recursiveSchemaIsRejectedBeforeSending() {
		ObjectNode schema = (ObjectNode) json("""
				{"type": "object", "properties": {"child": {"$ref": "#"}}}
				""");
		StepVerifier.create(model(settings()).call(new ChatRequest(HELLO.messages(),
				List.of(new ToolSpec("tree", "A tree", schema)), ChatOptions.DEFAULTS)))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("tool 'tree'")
				.hasMessageContaining("recursive"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void callParsesFunctionCallWithGeneratedId() {
		this.server.enqueue(Fixtures.json(200, "tool-use.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEmpty();
		assertThat(response.message().toolCalls())
			.containsExactly(new ToolCall("call_0", "set_light_values", "{\"brightness\":25,\"color_temp\":\"warm\"}"));
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(response.usage()).isEqualTo(new Usage(120, 18, 138));
	}

	@Test
	void callParsesParallelFunctionCalls() {
		this.server.enqueue(Fixtures.json(200, "parallel-tool-use.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().toolCalls()).containsExactly(
				new ToolCall("call_0", "power_disco_ball", "{\"power\":true}"),
				new ToolCall("call_1", "start_music", "{\"energetic\":true,\"loud\":true}"),
				new ToolCall("call_2", "dim_lights", "{\"brightness\":0.5}"));
		assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(response.model()).isEqualTo("gemini-2.5-flash");
	}

	@Test
	void thinkingPartsBecomeReasoningAndUsageCountsThoughtsAsOutput() {
		this.server.enqueue(Fixtures.json(200, "thinking.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("The prime numbers below 10 are 2, 3, 5 and 7.");
		assertThat(response.message().reasoning()).containsExactly(
				Reasoning.of("**Analyzing the question**\n\nThe user asks which prime numbers lie below 10. "
						+ "I list them: 2, 3, 5, 7."),
				new Reasoning("", "CiIBVKhc7oDPpCaXyJljgZzRa+0Q1v2v5yYXAFFD1+3fFS0=", null));
		// candidatesTokenCount 17 leaves the 384 thinking tokens out; output counts both
		assertThat(response.usage()).isEqualTo(new Usage(11, 401, 412, 0, 0, 384));
	}

	@Test
	void thoughtSignatureOfAFunctionCallIsSentBackOnIt() throws Exception {
		this.server.enqueue(Fixtures.json(200, "thinking-tool-use.json"));
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		GeminiChatModel model = model(settings());
		ChatResponse first = model.call(HELLO).block(TIMEOUT);
		ToolCall call = first.message().toolCalls().get(0);
		assertThat(call).isEqualTo(new ToolCall("call_0", "check_flight", "{\"flight\":\"AA100\"}"));
		assertThat(first.message().reasoning())
			.containsExactly(new Reasoning("", "EqUDCqIDAdHtim9dJ0kJ8H2F4j0q8y1C3zBkS1a1nT0=", null));
		assertThat(first.usage()).isEqualTo(new Usage(64, 116, 180, 0, 0, 100));
		take();
		List<Message> history = List.of(new UserMessage("Is AA100 on time?"), first.message(),
				ToolResultMessage.success(call, "{\"status\": \"delayed\"}"));
		model.call(ChatRequest.of(history)).block(TIMEOUT);
		assertThat(body(take()).get("contents")).isEqualTo(json("""
				[{"role": "user", "parts": [{"text": "Is AA100 on time?"}]},
				 {"role": "model", "parts": [{"functionCall": {"name": "check_flight", "args": {"flight": "AA100"}},
				   "thoughtSignature": "EqUDCqIDAdHtim9dJ0kJ8H2F4j0q8y1C3zBkS1a1nT0="}]},
				 {"role": "user", "parts": [{"functionResponse": {"name": "check_flight",
				   "response": {"status": "delayed"}}}]}]
				"""));
	}

	@Test
	void usageCarriesCachedContentTokens() {
		this.server.enqueue(Fixtures.json(200, "usage-cache.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.usage()).isEqualTo(new Usage(696220, 214, 696434, 696190, 0, 0));
	}

	@Test
	void blockedPromptIsAnAnswerlessContentFilterResponse() {
		this.server.enqueue(Fixtures.json(200, "prompt-blocked.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
		assertThat(response.message().text()).isEmpty();
		assertThat(response.message().toolCalls()).isEmpty();
		assertThat(response.message().refusal()).contains("SAFETY");
		assertThat(response.usage()).isEqualTo(new Usage(14, 0, 14));
	}

	@Test
	void safetyFinishReasonIsContentFilter() {
		this.server.enqueue(Fixtures.json(200, "safety-finish.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
		assertThat(response.message().text()).isEmpty();
	}

	@ParameterizedTest
	@CsvSource({ "MAX_TOKENS, LENGTH", "RECITATION, CONTENT_FILTER", "BLOCKLIST, CONTENT_FILTER",
			"PROHIBITED_CONTENT, CONTENT_FILTER", "SPII, CONTENT_FILTER", "MALFORMED_FUNCTION_CALL, OTHER",
			"LANGUAGE, OTHER", "OTHER, OTHER", "SOMETHING_NEW, OTHER" })
	void finishReasonsMap(String wire, FinishReason expected) {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body(Fixtures.read("answer.json").replace("\"STOP\"", "\"" + wire + "\""))
			.build());
		assertThat(model(settings()).call(HELLO).block(TIMEOUT).finishReason()).isEqualTo(expected);
	}

	@Test
	void streamEmitsTextDeltasAndUsageWithTheFinishReason() throws Exception {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-text.sse")));
		StepVerifier.create(model(settings()).stream(HELLO))
			.assertNext((chunk) -> {
				assertThat(chunk.textDelta()).isEqualTo("Once upon");
				assertThat(chunk.usage()).isNull();
			})
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo(" a time, a wörld"))
			.assertNext((chunk) -> {
				assertThat(chunk.textDelta()).isEqualTo(" began.");
				assertThat(chunk.finishReason()).isEqualTo(FinishReason.STOP);
				assertThat(chunk.usage()).isEqualTo(new Usage(6, 8, 14));
				assertThat(chunk.model()).isEqualTo("gemini-2.0-flash");
			})
			.expectComplete()
			.verify(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getTarget()).isEqualTo("/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse");
		assertThat(recorded.getHeaders().get("Accept")).isEqualTo("text/event-stream");
		assertThat(recorded.getHeaders().get("x-goog-api-key")).isEqualTo("gm-test");
	}

	@Test
	void streamServedInTinyReadsFoldsLikeACall() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "text/event-stream")
			.chunkedBody(Fixtures.read("stream-text.sse"), 7)
			.build());
		ChatResponse folded = fold(model(settings()).stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.message().text()).isEqualTo("Once upon a time, a wörld began.");
		assertThat(folded.usage()).isEqualTo(new Usage(6, 8, 14));
	}

	@Test
	void streamFunctionCallsGetAFreshIndexEach() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-tool-args.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks).hasSize(2);
		assertThat(chunks.get(0).toolCalls())
			.containsExactly(new ChatChunk.ToolCallDelta(0, "call_0", "get_weather", "{\"location\":\"Paris\"}"));
		assertThat(chunks.get(1).toolCalls())
			.containsExactly(new ChatChunk.ToolCallDelta(1, "call_1", "get_time", "{\"zone\":\"Europe/Paris\"}"));
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().toolCalls()).containsExactly(
				new ToolCall("call_0", "get_weather", "{\"location\":\"Paris\"}"),
				new ToolCall("call_1", "get_time", "{\"zone\":\"Europe/Paris\"}"));
		assertThat(folded.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(folded.usage()).isEqualTo(new Usage(50, 40, 90, 0, 0, 20));
	}

	@Test
	void streamThoughtsBecomeReasoningDeltasOfOneBlock() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-thinking.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks.get(0).reasoning()).isEqualTo(
				new ChatChunk.ReasoningDelta(0, "**Counting primes**\n\nI need the primes", null, null));
		assertThat(chunks.get(0).textDelta()).isEmpty();
		assertThat(chunks.get(1).reasoning()).isEqualTo(new ChatChunk.ReasoningDelta(0, " below 10.", null, null));
		ChatResponse folded = fold(chunks);
		assertThat(folded.message().text()).isEqualTo("2, 3, 5 and 7.");
		assertThat(folded.message().reasoning()).containsExactly(
				Reasoning.of("**Counting primes**\n\nI need the primes below 10."),
				new Reasoning("", "CiIBVKhc7oDPpCaXyJljgZzRa+0Q1v2v5yYXAFFD1+3fFS0=", null));
		assertThat(folded.usage()).isEqualTo(new Usage(11, 109, 120, 0, 0, 100));
	}

	@Test
	void streamOfABlockedPromptEndsWithContentFilter() {
		String blocked = Fixtures.read("prompt-blocked.json").replaceAll("\\s*\n\\s*", "");
		this.server.enqueue(Fixtures.sse("data: " + blocked + "\n\n"));
		ChatResponse folded = fold(model(settings()).stream(HELLO).collectList().block(TIMEOUT));
		assertThat(folded.finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
		assertThat(folded.message().refusal()).contains("SAFETY");
	}

	@Test
	void streamWithoutFinishReasonIsTruncated() {
		String body = Fixtures.read("stream-text.sse");
		this.server.enqueue(Fixtures.sse(body.substring(0, body.indexOf("data:", body.indexOf("wörld")))));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectNextCount(2)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("no finishReason"))
			.verify(TIMEOUT);
	}

	@Test
	void streamWithoutEventsFails() {
		this.server.enqueue(Fixtures.sse(": nothing\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("without sending any event"))
			.verify(TIMEOUT);
	}

	@Test
	void streamWithAnErrorEventFailsWithItsClassification() {
		this.server.enqueue(Fixtures.sse("data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hi\"}]}}]}\n\n"
				+ "data: " + Fixtures.read("error-503.json").replaceAll("\\s*\n\\s*", "") + "\n\n"));
		StepVerifier.create(model(settings()).stream(HELLO))
			.assertNext((chunk) -> assertThat(chunk.textDelta()).isEqualTo("Hi"))
			.expectErrorSatisfies((ex) -> {
				assertThat(ex).isInstanceOf(ModelServerException.class).hasMessageContaining("overloaded");
				assertThat(((ModelException) ex).isRetryable()).isTrue();
			})
			.verify(TIMEOUT);
	}

	@Test
	void streamThatGoesQuietFailsWithTimeout() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.sse(Fixtures.read("stream-text.sse")))
			.headersDelay(2, TimeUnit.SECONDS)
			.build());
		StepVerifier.create(model(settings().withResponseTimeout(Duration.ofMillis(300))).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelTimeoutException.class)
				.hasMessageContaining("300 ms"))
			.verify(TIMEOUT);
	}

	@Test
	void requestTimeoutOptionOverridesTheResponseTimeout() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(200, "answer.json"))
			.headersDelay(2, TimeUnit.SECONDS)
			.build());
		StepVerifier
			.create(model(settings()).call(new ChatRequest(HELLO.messages(), List.of(),
					ChatOptions.builder().timeout(Duration.ofMillis(200)).build())))
			.expectError(ModelTimeoutException.class)
			.verify(TIMEOUT);
	}

	@Test
	void rateLimitTakesTheWaitFromRetryInfo() {
		this.server.enqueue(new MockResponse.Builder(Fixtures.json(429, "error-429.json"))
			.addHeader("Retry-After", "5")
			.build());
		StepVerifier.create(model(settings()).call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(ModelRateLimitException.class).hasMessageContaining("exceeded your current quota");
			assertThat(((ModelException) ex).isRetryable()).isTrue();
			assertThat(((ModelException) ex).retryAfter()).isEqualTo(Duration.ofSeconds(37));
		}).verify(TIMEOUT);
	}

	@Test
	void rateLimitWithoutRetryInfoTakesRetryAfter() {
		this.server.enqueue(new MockResponse.Builder().code(429)
			.addHeader("Content-Type", "application/json")
			.addHeader("Retry-After", "5")
			.body("{\"error\": {\"code\": 429, \"message\": \"Resource has been exhausted (e.g. check quota).\", "
					+ "\"status\": \"RESOURCE_EXHAUSTED\"}}")
			.build());
		StepVerifier.create(model(settings()).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(((ModelException) ex).retryAfter()).isEqualTo(Duration.ofSeconds(5)))
			.verify(TIMEOUT);
	}

	@ParameterizedTest
	@CsvSource({ "error-400.json, 400, dev.agcore.model.ModelRequestException, false",
			"error-400-api-key.json, 400, dev.agcore.model.ModelAuthenticationException, false",
			"error-403.json, 403, dev.agcore.model.ModelAuthenticationException, false",
			"error-404.json, 404, dev.agcore.model.ModelRequestException, false",
			"error-context-length.json, 400, dev.agcore.model.ContextLengthExceededException, false",
			"error-500.json, 500, dev.agcore.model.ModelServerException, true",
			"error-503.json, 503, dev.agcore.model.ModelServerException, true" })
	void errorsAreClassified(String fixture, int status, Class<? extends Throwable> type, boolean retryable) {
		this.server.enqueue(Fixtures.json(status, fixture));
		this.server.enqueue(Fixtures.json(status, fixture));
		GeminiChatModel model = model(settings());
		String message = json(Fixtures.read(fixture)).get("error").get("message").asString();
		StepVerifier.create(model.call(HELLO)).expectErrorSatisfies((ex) -> {
			assertThat(ex).isExactlyInstanceOf(type).hasMessageContaining(message);
			assertThat(((ModelException) ex).statusCode()).isEqualTo(status);
			assertThat(((ModelException) ex).isRetryable()).isEqualTo(retryable);
			assertThat(((ModelException) ex).provider()).isEqualTo("gemini");
		}).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(type).verify(TIMEOUT);
	}

	@Test
	void malformedJsonFailsWithResponseException() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"candidates\": [")
			.build());
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("malformed JSON"))
			.verify(TIMEOUT);
	}

	@Test
	void responseWithoutCandidatesOrBlockReasonFails() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"usageMetadata\": {\"promptTokenCount\": 3}, \"modelVersion\": \"gemini-2.0-flash\"}")
			.build());
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("without candidates"))
			.verify(TIMEOUT);
	}

	@Test
	void signaturesOfThoughtAndTextPartsAreSentBackWhereTheyCame() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		AssistantMessage previous = new AssistantMessage("2, 3, 5 and 7.", List.of(),
				List.of(new Reasoning("Counting primes", "sig-thought", null), Reasoning.of("unsigned thought"),
						new Reasoning("", "sig-text", null)),
				null);
		model(settings()).call(ChatRequest.of(List.of(new UserMessage("Primes below 10?"), previous,
				new UserMessage("And below 20?"))))
			.block(TIMEOUT);
		assertThat(body(take()).get("contents").get(1)).isEqualTo(json("""
				{"role": "model", "parts": [
					{"text": "Counting primes", "thought": true, "thoughtSignature": "sig-thought"},
					{"text": "2, 3, 5 and 7.", "thoughtSignature": "sig-text"}]}
				"""));
	}

	@Test
	void headersFromSettingsAreSentAndBlankKeySendsNone() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		model(settings().withApiKey(" ").withHeaders(Map.of("x-goog-user-project", "my-project")))
			.call(HELLO)
			.block(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getHeaders().get("x-goog-api-key")).isNull();
		assertThat(recorded.getHeaders().get("x-goog-user-project")).isEqualTo("my-project");
	}

	@Test
	void checkHealthListsOneModel() throws Exception {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"models\": [{\"name\": \"models/gemini-2.0-flash\"}], \"nextPageToken\": \"x\"}")
			.build());
		this.server.enqueue(Fixtures.json(400, "error-400-api-key.json"));
		GeminiChatModel model = model(settings());
		StepVerifier.create(model.checkHealth()).expectComplete().verify(TIMEOUT);
		RecordedRequest recorded = take();
		assertThat(recorded.getMethod()).isEqualTo("GET");
		assertThat(recorded.getTarget()).isEqualTo("/v1beta/models?pageSize=1");
		assertThat(recorded.getHeaders().get("x-goog-api-key")).isEqualTo("gm-test");
		StepVerifier.create(model.checkHealth()).expectError(ModelAuthenticationException.class).verify(TIMEOUT);
	}

	@Test
	void capabilitiesAndSettings() {
		GeminiChatModel model = model(settings());
		assertThat(model.capabilities()).containsExactlyInAnyOrder(ModelCapability.TOOLS, ModelCapability.STREAMING,
				ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING, ModelCapability.IMAGES,
				ModelCapability.PDF);
		assertThat(model.providerName()).isEqualTo("gemini");
		assertThat(model.modelName()).isEqualTo("gemini-2.0-flash");
		assertThat(GeminiSettings.of("k", "m").baseUrl()).isEqualTo("https://generativelanguage.googleapis.com/v1beta");
		assertThat(settings().toString()).doesNotContain("gm-test").contains("apiKey=******");
	}

	private GeminiSettings settings() {
		return GeminiSettings.of("gm-test", "gemini-2.0-flash").withBaseUrl(this.server.url("/v1beta").toString());
	}

	private static GeminiChatModel model(GeminiSettings settings) {
		return GeminiChatModel.builder().settings(settings).build();
	}

	private RecordedRequest take() throws InterruptedException {
		RecordedRequest request = this.server.takeRequest(5, TimeUnit.SECONDS);
		assertThat(request).isNotNull();
		return request;
	}

	private static JsonNode body(RecordedRequest request) {
		return json(request.getBody().string(StandardCharsets.UTF_8));
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
