package dev.agcore.embedding.onnx;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LocalOnnxEmbeddingModel} with the real quantised MiniLM model.
 */
class LocalOnnxEmbeddingModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final LocalOnnxEmbeddingModel model = new LocalOnnxEmbeddingModel();

	@Test
	void similarMeaningsAreCloserThanUnrelatedOnes() {
		List<float[]> vectors = this.model
			.embed(List.of("How do I reset my password?", "I forgot my login credentials", "The cat sat on the mat"))
			.block(TIMEOUT);
		assertThat(vectors).hasSize(3).allSatisfy((vector) -> assertThat(vector).hasSize(384));
		assertThat(cosine(vectors.get(0), vectors.get(1))).isGreaterThan(cosine(vectors.get(0), vectors.get(2)) + 0.2);
		assertThat(this.model.name()).isEqualTo("local:all-minilm-l6-v2-q");
		assertThat(this.model.dimensions()).isEqualTo(384);
	}

	@Test
	void blankTextsGetTheZeroVectorInTheirPlace() {
		List<float[]> vectors = this.model.embed(List.of("hello", " ", "world")).block(TIMEOUT);
		assertThat(vectors.get(1)).containsOnly(0f).hasSize(384);
		assertThat(vectors.get(0)).isNotEqualTo(new float[384]);
		assertThat(vectors.get(2)).isNotEqualTo(new float[384]);
	}

	@Test
	void inferenceRunsOffTheCallersThreadAndTheModelLoadsOnce() {
		int[] loads = new int[1];
		String[] threads = new String[1];
		LocalOnnxEmbeddingModel counting = new LocalOnnxEmbeddingModel(() -> {
			loads[0]++;
			threads[0] = Thread.currentThread().getName();
			return new dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel();
		}, "counted", 384);
		Mono.when(counting.embed("a"), counting.embed("b")).block(TIMEOUT);
		counting.embed("c").block(TIMEOUT);
		assertThat(loads[0]).isEqualTo(1);
		assertThat(threads[0]).startsWith("boundedElastic");
	}

	@Test
	void anEmptyListIsRefused() {
		StepVerifier.create(this.model.embed(List.of())).expectError(IllegalArgumentException.class).verify(TIMEOUT);
	}

	@Test
	void theDefaultModelIsDetectedOnTheClassPath() {
		assertThat(LocalOnnxEmbeddingModel.isDefaultModelPresent(getClass().getClassLoader())).isTrue();
	}

	private static double cosine(float[] a, float[] b) {
		double dot = 0;
		double na = 0;
		double nb = 0;
		for (int i = 0; i < a.length; i++) {
			dot += a[i] * b[i];
			na += a[i] * a[i];
			nb += b[i] * b[i];
		}
		return dot / Math.sqrt(na * nb);
	}

}
