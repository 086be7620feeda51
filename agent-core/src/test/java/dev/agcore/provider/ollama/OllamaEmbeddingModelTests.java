package dev.agcore.provider.ollama;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link OllamaEmbeddingModel} against a {@link MockWebServer}.
 */
class OllamaEmbeddingModelTests {

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
	void postsToApiEmbedAndReturnsTheVectors() throws Exception {
		this.server.enqueue(json(200, """
				{"model": "all-minilm", "embeddings": [[0.1, 0.2], [0.3, 0.4]],
				 "total_duration": 14143917, "load_duration": 1019500, "prompt_eval_count": 8}
				"""));
		OllamaEmbeddingModel model = builder().model("all-minilm").dimensions(2).build();
		List<float[]> vectors = model.embed(List.of("why is the sky blue?", "why is the grass green?"))
			.block(TIMEOUT);
		assertThat(vectors).containsExactly(new float[] { 0.1f, 0.2f }, new float[] { 0.3f, 0.4f });
		RecordedRequest recorded = this.server.takeRequest(5, TimeUnit.SECONDS);
		assertThat(recorded.getTarget()).isEqualTo("/api/embed");
		assertThat(recorded.getHeaders().get("Authorization")).isNull();
		assertThat(AgentJson.mapper().readTree(recorded.getBody().utf8())).isEqualTo(AgentJson.mapper().readTree("""
				{"model": "all-minilm", "input": ["why is the sky blue?", "why is the grass green?"]}
				"""));
		assertThat(model.name()).isEqualTo("ollama:all-minilm");
	}

	@Test
	void knownModelsNeedNoDimensionsWhateverTheirTag() {
		assertThat(OllamaEmbeddingModel.builder().model("nomic-embed-text:latest").build().dimensions()).isEqualTo(768);
		assertThat(OllamaEmbeddingModel.builder().model("bge-m3").build().dimensions()).isEqualTo(1024);
		assertThatIllegalStateException().isThrownBy(() -> OllamaEmbeddingModel.builder().model("mine").build())
			.withMessageContaining("dimensions of embedding model 'mine' are unknown");
	}

	@Test
	void anUnknownModelIsARequestErrorWithOllamasMessage() {
		this.server.enqueue(json(404, "{\"error\": \"model \\\"nope\\\" not found, try pulling it first\"}"));
		StepVerifier.create(builder().model("nope").dimensions(2).build().embed(List.of("a")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRequestException.class)
				.hasMessageContaining("not found, try pulling it first"))
			.verify(TIMEOUT);
	}

	@Test
	void vectorsOfTheWrongSizeFail() {
		this.server.enqueue(json(200, "{\"embeddings\": [[0.1, 0.2, 0.3]]}"));
		StepVerifier.create(builder().model("m").dimensions(2).build().embed(List.of("a")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelResponseException.class)
				.hasMessageContaining("a vector of 3 dimensions for model 'm', configured for 2"))
			.verify(TIMEOUT);
	}

	@Test
	void anUnreachableServerIsAConnectionError() throws IOException {
		int port;
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		OllamaEmbeddingModel model = OllamaEmbeddingModel.builder().baseUrl("http://127.0.0.1:" + port)
			.model("m")
			.dimensions(2)
			.build();
		StepVerifier.create(model.embed(List.of("a"))).expectError(ModelConnectionException.class).verify(TIMEOUT);
	}

	private OllamaEmbeddingModel.Builder builder() {
		return OllamaEmbeddingModel.builder().baseUrl(this.server.url("/").toString());
	}

	private static MockResponse json(int status, String body) {
		return new MockResponse.Builder().code(status).addHeader("Content-Type", "application/json").body(body).build();
	}

}
