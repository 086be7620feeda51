package dev.agcore.provider.openai;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
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
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the wire format of {@link OpenAiChatModel} beyond plain text and tools: every
 * option, tool choice, response format, developer role, names and media, refusals,
 * reasoning, usage details, quirks of compatible servers, rate limits and the health
 * check, against a {@link MockWebServer} replaying the documented payloads.
 */
class OpenAiWireFormatTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final ChatRequest HELLO = ChatRequest.of(List.of(new UserMessage("Hello")));

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
	void everyOptionReachesTheRequest() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ChatOptions options = ChatOptions.builder()
			.temperature(0.3)
			.topP(0.9)
			.maxTokens(500)
			.stop(List.of("END"))
			.seed(42L)
			.frequencyPenalty(0.5)
			.presencePenalty(-0.5)
			.reasoningEffort("low")
			.build();
		model(settings().withQuirks(OpenAiQuirks.OPENAI))
			.call(new ChatRequest(List.of(SystemMessage.developer("Be terse."), new UserMessage("Hello")), List.of(),
					options))
			.block(TIMEOUT);
		assertThat(body(take())).isEqualTo(json("""
				{"model": "gpt-4o-mini",
				 "messages": [{"role": "developer", "content": "Be terse."}, {"role": "user", "content": "Hello"}],
				 "temperature": 0.3, "top_p": 0.9, "max_completion_tokens": 500, "stop": ["END"], "seed": 42,
				 "frequency_penalty": 0.5, "presence_penalty": -0.5, "reasoning_effort": "low"}
				"""));
	}

	@Test
	void compatibleServersGetSystemRoleAndMaxTokens() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		model(settings()).call(new ChatRequest(List.of(SystemMessage.developer("Be terse."), new UserMessage("Hi")),
				List.of(), ChatOptions.builder().maxTokens(20).build()))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.at("/messages/0/role").asString()).isEqualTo("system");
		assertThat(body.get("max_tokens").asInt()).isEqualTo(20);
		assertThat(body.has("max_completion_tokens")).isFalse();
	}

	@Test
	void mistralGetsRandomSeedAndNoStreamOptions() throws Exception {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-text.sse")));
		model(settings().withQuirks(OpenAiQuirks.MISTRAL))
			.stream(new ChatRequest(HELLO.messages(), List.of(), ChatOptions.builder().seed(7L).build()))
			.collectList()
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("random_seed").asLong()).isEqualTo(7);
		assertThat(body.has("seed")).isFalse();
		assertThat(body.get("stream").asBoolean()).isTrue();
		assertThat(body.has("stream_options")).isFalse();
	}

	@Test
	void streamAsksForUsageByDefault() throws Exception {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-text.sse")));
		model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(body(take()).get("stream_options")).isEqualTo(json("{\"include_usage\": true}"));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "auto|\"auto\"", "none|\"none\"", "required|\"required\"",
			"get_weather|{\"type\": \"function\", \"function\": {\"name\": \"get_weather\"}}" })
	void toolChoiceIsMapped(String choice, String expected) throws Exception {
		this.server.enqueue(Fixtures.json(200, "tool-use.json"));
		model(settings())
			.call(new ChatRequest(HELLO.messages(), List.of(),
					ChatOptions.builder().toolChoice(ToolChoice.parse(choice)).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("tool_choice")).isEqualTo(json(expected));
	}

	@Test
	void jsonSchemaResponseFormatIsSentStrict() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		ObjectNode schema = (ObjectNode) json("""
				{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
				 "additionalProperties": false}
				""");
		model(settings()).call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().responseFormat(ResponseFormat.jsonSchema("City", schema)).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("response_format")).isEqualTo(json("""
				{"type": "json_schema", "json_schema": {"name": "City", "schema": %s, "strict": true}}
				""".formatted(schema)));
	}

	@Test
	void jsonObjectAndTextResponseFormats() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		OpenAiChatModel model = model(settings());
		model.call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().responseFormat(ResponseFormat.JSON_OBJECT).build()))
			.block(TIMEOUT);
		model.call(new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().responseFormat(ResponseFormat.TEXT).build()))
			.block(TIMEOUT);
		assertThat(body(take()).get("response_format")).isEqualTo(json("{\"type\": \"json_object\"}"));
		assertThat(body(take()).get("response_format")).isEqualTo(json("{\"type\": \"text\"}"));
	}

	@Test
	void userMediaBecomeContentParts() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		byte[] png = { (byte) 0x89, 'P', 'N', 'G' };
		byte[] pdf = "%PDF-1.7".getBytes(StandardCharsets.US_ASCII);
		UserMessage user = new UserMessage("What is in these?",
				List.of(Media.url(URI.create("https://example.com/cat.jpg"), "image/jpeg"),
						Media.bytes(png, "image/png"), new Media("application/pdf", null, pdf, "report.pdf")),
				"alice");
		model(settings()).call(ChatRequest.of(List.of(user))).block(TIMEOUT);
		assertThat(body(take()).get("messages")).isEqualTo(json("""
				[{"role": "user", "name": "alice", "content": [
					{"type": "text", "text": "What is in these?"},
					{"type": "image_url", "image_url": {"url": "https://example.com/cat.jpg"}},
					{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw=="}},
					{"type": "file", "file": {"filename": "report.pdf",
						"file_data": "data:application/pdf;base64,JVBERi0xLjc="}}]}]
				"""));
	}

	@Test
	void participantNameOnPlainUserMessage() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		model(settings()).call(ChatRequest.of(List.of(new UserMessage("Hi", List.of(), "bob")))).block(TIMEOUT);
		assertThat(body(take()).at("/messages/0")).isEqualTo(json("""
				{"role": "user", "content": "Hi", "name": "bob"}
				"""));
	}

	@Test
	void mediaTheServerCannotTakeFailBeforeSending() {
		OpenAiChatModel textOnly = model(settings().withCapabilities(EnumSet.of(ModelCapability.TOOLS)));
		ChatRequest image = ChatRequest.of(List.of(UserMessage.of("x", Media.bytes(new byte[] { 1 }, "image/png"))));
		StepVerifier.create(textOnly.call(image))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("images"))
			.verify(TIMEOUT);
		ChatRequest pdfUrl = ChatRequest
			.of(List.of(UserMessage.of("x", Media.url(URI.create("https://example.com/a.pdf"), "application/pdf"))));
		StepVerifier.create(model(settings()).call(pdfUrl))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("PDF documents as bytes"))
			.verify(TIMEOUT);
		ChatRequest audio = ChatRequest.of(List.of(UserMessage.of("x", Media.bytes(new byte[] { 1 }, "audio/wav"))));
		StepVerifier.create(model(settings()).call(audio))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("audio/wav"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void reasoningIsNotSentBackExceptToDeepSeekOnToolTurns() throws Exception {
		ToolCall call = new ToolCall("call_1", "get_weather", "{}");
		List<dev.agcore.message.Message> history = List.of(new UserMessage("Weather?"),
				new AssistantMessage("", List.of(call), List.of(Reasoning.of("I should call the tool.")), null),
				ToolResultMessage.success(call, "sunny"),
				new AssistantMessage("Sunny.", List.of(), List.of(Reasoning.of("Easy.")), null),
				new UserMessage("Thanks"));
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		model(settings()).call(ChatRequest.of(history)).block(TIMEOUT);
		model(settings().withQuirks(OpenAiQuirks.DEEPSEEK)).call(ChatRequest.of(history)).block(TIMEOUT);
		JsonNode plain = body(take()).get("messages");
		assertThat(plain.get(1).has("reasoning_content")).isFalse();
		assertThat(plain.get(3)).isEqualTo(json("{\"role\": \"assistant\", \"content\": \"Sunny.\"}"));
		JsonNode deepSeek = body(take()).get("messages");
		assertThat(deepSeek.get(1).get("reasoning_content").asString()).isEqualTo("I should call the tool.");
		assertThat(deepSeek.get(3).has("reasoning_content")).isFalse();
	}

	@Test
	void refusalIsKeptApartFromText() {
		this.server.enqueue(Fixtures.json(200, "refusal.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().refusal()).isEqualTo("I'm sorry, I cannot assist with that request.");
		assertThat(response.message().text()).isEmpty();
	}

	@Test
	void streamedRefusalArrivesAsRefusalDeltas() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-refusal.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		assertThat(chunks).extracting(ChatChunk::refusalDelta)
			.contains("I'm sorry, ", "I cannot assist with that request.");
		ChatResponse response = fold(chunks);
		assertThat(response.message().refusal()).isEqualTo("I'm sorry, I cannot assist with that request.");
		assertThat(response.message().text()).isEmpty();
	}

	@Test
	void reasoningContentBecomesReasoning() {
		this.server.enqueue(Fixtures.json(200, "thinking.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("9.11 is smaller than 9.8, so 9.8 is greater.");
		assertThat(response.message().reasoning()).containsExactly(Reasoning.of(
				"Compare 9.11 and 9.8: the tenths digit of 9.8 is 8, of 9.11 is 1. So 9.8 is greater."));
		assertThat(response.usage()).isEqualTo(new Usage(17, 180, 197, 0, 0, 160));
	}

	@Test
	void streamedReasoningContentArrivesAsReasoningDeltas() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("thinking.sse")));
		List<ChatChunk> chunks = model(settings()).stream(HELLO).collectList().block(TIMEOUT);
		List<String> reasoning = new ArrayList<>();
		for (ChatChunk chunk : chunks) {
			if (chunk.reasoning() != null) {
				assertThat(chunk.reasoning().index()).isZero();
				assertThat(chunk.textDelta()).isEmpty();
				reasoning.add(chunk.reasoning().textDelta());
			}
		}
		assertThat(reasoning).containsExactly("Compare 9.11", " and 9.8.");
		ChatResponse response = fold(chunks);
		assertThat(response.message().text()).isEqualTo("9.8 is greater.");
		assertThat(response.message().reasoningText()).isEqualTo("Compare 9.11 and 9.8.");
		assertThat(response.usage().reasoningTokens()).isEqualTo(160);
	}

	@Test
	void openRouterReasoningBecomesReasoning() {
		this.server.enqueue(Fixtures.json(200, "thinking-openrouter.json"));
		ChatResponse response = model(settings()).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Paris.");
		assertThat(response.message().reasoningText())
			.isEqualTo("The user asks for the capital of France. That is Paris.");
	}

	@Test
	void usageDetailsGiveCachedAndReasoningTokens() {
		this.server.enqueue(Fixtures.json(200, "usage-cache.json"));
		this.server.enqueue(Fixtures.json(200, "usage-cache-deepseek.json"));
		OpenAiChatModel model = model(settings());
		assertThat(model.call(HELLO).block(TIMEOUT).usage()).isEqualTo(new Usage(2006, 1300, 3306, 1920, 0, 1024));
		assertThat(model.call(HELLO).block(TIMEOUT).usage()).isEqualTo(new Usage(1280, 12, 1292, 1152, 0, 0));
	}

	@Test
	void rateLimitHeadersReachTheListener() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.addHeader("x-ratelimit-limit-requests", "60")
			.addHeader("x-ratelimit-remaining-requests", "59")
			.addHeader("x-ratelimit-remaining-tokens", "149984")
			.body(Fixtures.read("answer.json"))
			.build());
		this.server.enqueue(Fixtures.json(401, "error-401.json"));
		List<HttpHeaders> seen = new ArrayList<>();
		OpenAiChatModel model = OpenAiChatModel.builder()
			.settings(settings())
			.rateLimitListener((provider, modelName, headers) -> {
				assertThat(provider).isEqualTo("openai");
				assertThat(modelName).isEqualTo("gpt-4o-mini");
				seen.add(headers);
			})
			.build();
		model.call(HELLO).block(TIMEOUT);
		StepVerifier.create(model.call(HELLO)).expectError(ModelAuthenticationException.class).verify(TIMEOUT);
		assertThat(seen).hasSize(2);
		assertThat(seen.get(0).getFirst("x-ratelimit-remaining-requests")).isEqualTo("59");
	}

	@Test
	void streamedResponseHeadersReachTheListener() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-text.sse"))
			.newBuilder()
			.addHeader("x-ratelimit-remaining-tokens", "1000")
			.build());
		List<HttpHeaders> seen = new ArrayList<>();
		OpenAiChatModel model = OpenAiChatModel.builder()
			.settings(settings())
			.rateLimitListener((provider, modelName, headers) -> seen.add(headers))
			.build();
		model.stream(HELLO).collectList().block(TIMEOUT);
		assertThat(seen).singleElement()
			.satisfies((headers) -> assertThat(headers.getFirst("x-ratelimit-remaining-tokens")).isEqualTo("1000"));
	}

	@Test
	void failingListenerDoesNotFailTheCall() {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		OpenAiChatModel model = OpenAiChatModel.builder().settings(settings()).rateLimitListener((p, m, h) -> {
			throw new IllegalStateException("boom");
		}).build();
		assertThat(model.call(HELLO).block(TIMEOUT).message().text()).isNotEmpty();
	}

	@Test
	void rateLimitResetGivesTheWaitOfA429() {
		this.server.enqueue(new MockResponse.Builder().code(429)
			.addHeader("Content-Type", "application/json")
			.addHeader("x-ratelimit-remaining-requests", "0")
			.addHeader("x-ratelimit-remaining-tokens", "149984")
			.addHeader("x-ratelimit-reset-requests", "1s")
			.addHeader("x-ratelimit-reset-tokens", "6m0s")
			.body(Fixtures.read("error-429.json"))
			.build());
		StepVerifier.create(model(settings()).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRateLimitException.class)
				.satisfies((rateLimit) -> assertThat(((ModelRateLimitException) rateLimit).retryAfter())
					.isEqualTo(Duration.ofSeconds(1))))
			.verify(TIMEOUT);
	}

	@Test
	void headersExtraBodyAuthQueryAndPathAreApplied() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		OpenAiSettings settings = new OpenAiSettings("azure", this.server.url("/openai").toString(), "az-key", "dep",
				null, null, null)
			.withAuthStyle(OpenAiSettings.AuthStyle.API_KEY)
			.withQueryParameters(Map.of("api-version", "2024-10-21"))
			.withChatPath("/deployments/dep/chat/completions")
			.withHeaders(Map.of("X-Trace", "t-1"))
			.withExtraBody(Map.of("user", "u-1", "temperature", 1.0));
		ChatOptions options = ChatOptions.builder().temperature(0.1).build();
		model(settings).call(new ChatRequest(HELLO.messages(), List.of(), options)).block(TIMEOUT);
		RecordedRequest request = take();
		assertThat(request.getTarget()).isEqualTo("/openai/deployments/dep/chat/completions?api-version=2024-10-21");
		assertThat(request.getHeaders().get("api-key")).isEqualTo("az-key");
		assertThat(request.getHeaders().get("Authorization")).isNull();
		assertThat(request.getHeaders().get("X-Trace")).isEqualTo("t-1");
		JsonNode body = body(request);
		assertThat(body.get("user").asString()).isEqualTo("u-1");
		// the extra body is merged last: it wins
		assertThat(body.get("temperature").asDouble()).isEqualTo(1.0);
	}

	@Test
	void defaultOptionsApplyUnderRequestOptions() throws Exception {
		this.server.enqueue(Fixtures.json(200, "answer.json"));
		OpenAiSettings settings = settings().withTemperature(0.9)
			.withMaxTokens(10)
			.withDefaultOptions(ChatOptions.builder().temperature(0.5).topP(0.8).build());
		model(settings).call(new ChatRequest(HELLO.messages(), List.of(), ChatOptions.builder().topP(0.2).build()))
			.block(TIMEOUT);
		JsonNode body = body(take());
		assertThat(body.get("temperature").asDouble()).isEqualTo(0.5);
		assertThat(body.get("top_p").asDouble()).isEqualTo(0.2);
		assertThat(body.get("max_tokens").asInt()).isEqualTo(10);
	}

	@Test
	void healthCheckListsModels() throws Exception {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"object\": \"list\", \"data\": [{\"id\": \"gpt-4o-mini\", \"object\": \"model\"}]}")
			.build());
		this.server.enqueue(Fixtures.json(401, "error-401.json"));
		OpenAiChatModel model = model(settings());
		StepVerifier.create(model.checkHealth()).expectComplete().verify(TIMEOUT);
		StepVerifier.create(model.checkHealth()).expectError(ModelAuthenticationException.class).verify(TIMEOUT);
		RecordedRequest request = take();
		assertThat(request.getMethod()).isEqualTo("GET");
		assertThat(request.getTarget()).isEqualTo("/v1/models");
		assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer sk-test");
	}

	@Test
	void requestTimeoutReplacesTheResponseTimeout() {
		this.server.enqueue(Fixtures.json(200, "answer.json").newBuilder().headersDelay(2, TimeUnit.SECONDS).build());
		ChatRequest request = new ChatRequest(HELLO.messages(), List.of(),
				ChatOptions.builder().timeout(Duration.ofMillis(200)).build());
		StepVerifier.create(model(settings()).call(request))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelTimeoutException.class)
				.hasMessageContaining("200 ms"))
			.verify(TIMEOUT);
	}

	@Test
	void azureHealthCheckListsModelsWithApiVersionAndKeyHeader() throws Exception {
		this.server.enqueue(new MockResponse.Builder().code(200).body("{\"data\": []}").build());
		OpenAiSettings settings = new OpenAiSettings("azure", this.server.url("/openai").toString(), "az-key", "dep",
				null, null, null)
			.withAuthStyle(OpenAiSettings.AuthStyle.API_KEY)
			.withQueryParameters(Map.of("api-version", "2024-10-21"))
			.withChatPath("/deployments/dep/chat/completions");
		StepVerifier.create(model(settings).checkHealth()).expectComplete().verify(TIMEOUT);
		RecordedRequest request = take();
		assertThat(request.getTarget()).isEqualTo("/openai/models?api-version=2024-10-21");
		assertThat(request.getHeaders().get("api-key")).isEqualTo("az-key");
	}

	@Test
	void capabilitiesComeFromTheSettings() {
		assertThat(model(settings()).capabilities()).containsExactlyInAnyOrder(ModelCapability.TOOLS,
				ModelCapability.STREAMING, ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING,
				ModelCapability.IMAGES, ModelCapability.PDF);
		assertThat(model(settings().withCapabilities(EnumSet.of(ModelCapability.TOOLS))).capabilities())
			.containsExactly(ModelCapability.TOOLS);
	}

	@Test
	void toStringMasksKeyAndHeaderValues() {
		String text = settings().withHeaders(Map.of("X-Secret", "hidden-value")).toString();
		assertThat(text).doesNotContain("sk-test").doesNotContain("hidden-value").contains("X-Secret");
	}

	private OpenAiSettings settings() {
		return OpenAiSettings.of(this.server.url("/v1/").toString(), "sk-test", "gpt-4o-mini");
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
		return AgentJson.mapper().readTree(request.getBody().utf8());
	}

	private static JsonNode json(String json) {
		return AgentJson.mapper().readTree(json);
	}

	private static ChatResponse fold(List<ChatChunk> chunks) {
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("openai");
		chunks.forEach(accumulator::add);
		return accumulator.toResponse();
	}

}
