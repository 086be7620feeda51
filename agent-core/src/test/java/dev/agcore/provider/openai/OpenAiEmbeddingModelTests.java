package dev.agcore.provider.openai;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelTimeoutException;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link OpenAiEmbeddingModel} against a {@link MockWebServer}.
 */
class OpenAiEmbeddingModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

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
	void postsTheTextsAndReturnsVectorsInInputOrder() throws Exception {
		// the API may list the vectors in any order; each names its input
		this.server.enqueue(json(200, """
				{"object": "list", "model": "text-embedding-3-small", "data": [
					{"object": "embedding", "index": 1, "embedding": [0.0, 1.0, 0.5]},
					{"object": "embedding", "index": 0, "embedding": [1.0, 0.0, -0.5]}],
				 "usage": {"prompt_tokens": 4, "total_tokens": 4}}
				"""));
		OpenAiEmbeddingModel model = builder().model("text-embedding-3-small").dimensions(3).build();
		List<float[]> vectors = model.embed(List.of("first", "second")).block(TIMEOUT);
		assertThat(vectors).containsExactly(new float[] { 1f, 0f, -0.5f }, new float[] { 0f, 1f, 0.5f });
		RecordedRequest recorded = this.server.takeRequest(5, TimeUnit.SECONDS);
		assertThat(recorded.getTarget()).isEqualTo("/v1/embeddings");
		assertThat(recorded.getHeaders().get("Authorization")).isEqualTo("Bearer sk-test");
		assertThat(body(recorded)).isEqualTo(AgentJson.mapper().readTree("""
				{"model": "text-embedding-3-small", "input": ["first", "second"], "encoding_format": "float",
				 "dimensions": 3}
				"""));
		assertThat(model.name()).isEqualTo("openai:text-embedding-3-small");
		assertThat(model.dimensions()).isEqualTo(3);
	}

	@Test
	void knownModelsNeedNoDimensionsAndSendNone() throws Exception {
		this.server.enqueue(json(200, "{\"data\": [{\"index\": 0, \"embedding\": " + zeros(1536) + "}]}"));
		OpenAiEmbeddingModel model = builder().model("text-embedding-3-small").build();
		assertThat(model.dimensions()).isEqualTo(1536);
		assertThat(model.embed("text").block(TIMEOUT)).hasSize(1536);
		assertThat(body(this.server.takeRequest(5, TimeUnit.SECONDS)).has("dimensions")).isFalse();
	}

	@Test
	void otherServersAreNotSentDimensionsTheyMayNotKnow() throws Exception {
		this.server.enqueue(json(200, "{\"data\": [{\"index\": 0, \"embedding\": [1, 2]}]}"));
		OpenAiEmbeddingModel model = builder().model("bge-m3").dimensions(2).providerName("vllm").build();
		model.embed("text").block(TIMEOUT);
		assertThat(body(this.server.takeRequest(5, TimeUnit.SECONDS)).has("dimensions")).isFalse();
		assertThat(model.name()).isEqualTo("vllm:bge-m3");
	}

	@Test
	void unknownModelsWithoutDimensionsAreRefused() {
		assertThatIllegalStateException().isThrownBy(() -> builder().model("my-embedder").build())
			.withMessageContaining("dimensions of embedding model 'my-embedder' are unknown");
	}

	@Test
	void vectorsOfTheWrongSizeOrCountFailNamingWhat() {
		this.server.enqueue(json(200, "{\"data\": [{\"index\": 0, \"embedding\": [1, 2]}]}"));
		this.server.enqueue(json(200, "{\"data\": [{\"index\": 0, \"embedding\": [1, 2, 3]}]}"));
		this.server.enqueue(json(200, "{\"data\": [{\"index\": 5, \"embedding\": [1, 2, 3]}]}"));
		OpenAiEmbeddingModel model = builder().model("m").dimensions(3).build();
		StepVerifier.create(model.embed(List.of("a")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("a vector of 2 dimensions for model 'm', configured for 3"))
			.verify(TIMEOUT);
		StepVerifier.create(model.embed(List.of("a", "b")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("1 embeddings for 2 inputs"))
			.verify(TIMEOUT);
		StepVerifier.create(model.embed(List.of("a")))
			.expectErrorSatisfies((ex) -> assertThat(ex).hasMessageContaining("out-of-range index 5"))
			.verify(TIMEOUT);
	}

	@Test
	void errorStatusesMapToModelExceptions() {
		this.server.enqueue(json(401, "{\"error\": {\"message\": \"Incorrect API key provided\"}}"));
		this.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "2").body("{}").build());
		OpenAiEmbeddingModel model = builder().model("m").dimensions(3).build();
		StepVerifier.create(model.embed(List.of("a")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelAuthenticationException.class)
				.hasMessageContaining("Incorrect API key provided"))
			.verify(TIMEOUT);
		StepVerifier.create(model.embed(List.of("a"))).expectError(ModelRateLimitException.class).verify(TIMEOUT);
	}

	@Test
	void malformedJsonIsAResponseError() {
		this.server.enqueue(json(200, "{\"data\": [ nope"));
		StepVerifier.create(builder().model("m").dimensions(3).build().embed(List.of("a")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("malformed JSON"))
			.verify(TIMEOUT);
	}

	@Test
	void aSlowServerTimesOut() {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.body("{\"data\": []}")
			.headersDelay(3, TimeUnit.SECONDS)
			.build());
		OpenAiEmbeddingModel model = builder().model("m").dimensions(3).responseTimeout(Duration.ofMillis(200)).build();
		StepVerifier.create(model.embed(List.of("a"))).expectError(ModelTimeoutException.class).verify(TIMEOUT);
	}

	@Test
	void emptyOrOversizedBatchesAreRefusedBeforeAnyRequest() {
		OpenAiEmbeddingModel model = builder().model("m").dimensions(3).build();
		StepVerifier.create(model.embed(List.of())).expectError(IllegalArgumentException.class).verify(TIMEOUT);
		List<String> tooMany = java.util.Collections.nCopies(OpenAiEmbeddingModel.MAX_INPUTS_PER_REQUEST + 1, "a");
		StepVerifier.create(model.embed(tooMany)).expectError(IllegalArgumentException.class).verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isZero();
	}

	private OpenAiEmbeddingModel.Builder builder() {
		return OpenAiEmbeddingModel.builder().baseUrl(this.server.url("/v1/").toString()).apiKey("sk-test");
	}

	private static MockResponse json(int status, String body) {
		return new MockResponse.Builder().code(status).addHeader("Content-Type", "application/json").body(body).build();
	}

	private static JsonNode body(RecordedRequest request) {
		return AgentJson.mapper().readTree(request.getBody().utf8());
	}

	private static String zeros(int count) {
		return java.util.stream.Stream.generate(() -> "0.1").limit(count).collect(java.util.stream.Collectors.joining(",", "[", "]"));
	}

}
