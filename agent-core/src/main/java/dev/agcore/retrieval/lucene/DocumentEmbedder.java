package dev.agcore.retrieval.lucene;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.Document;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Embeds the documents added to a {@link LuceneDocumentIndex}: in batches, checking what
 * the model returns, leaving without a vector the documents that cannot have one.
 */
final class DocumentEmbedder {

	private static final int EMBEDDING_BATCH = 32;

	private final @Nullable EmbeddingModel embeddingModel;

	private final int maxChars;

	DocumentEmbedder(@Nullable EmbeddingModel embeddingModel, int maxChars) {
		this.embeddingModel = embeddingModel;
		this.maxChars = maxChars;
	}

	// one vector per document, null for those without text or without a model
	Mono<List<float @Nullable []>> embed(List<Document> documents) {
		return Mono.defer(() -> embedNow(documents));
	}

	private Mono<List<float @Nullable []>> embedNow(List<Document> documents) {
		List<float @Nullable []> vectors = new ArrayList<>(documents.size());
		documents.forEach((document) -> vectors.add(null));
		EmbeddingModel model = this.embeddingModel;
		if (model == null) {
			return Mono.just(vectors);
		}
		List<Integer> positions = new ArrayList<>();
		List<String> texts = new ArrayList<>();
		for (int i = 0; i < documents.size(); i++) {
			String text = LuceneDocuments.embeddingText(documents.get(i), this.maxChars);
			if (!text.isEmpty()) {
				positions.add(i);
				texts.add(text);
			}
		}
		return Flux.range(0, (texts.size() + EMBEDDING_BATCH - 1) / EMBEDDING_BATCH).concatMap((batch) -> {
			int from = batch * EMBEDDING_BATCH;
			List<String> slice = texts.subList(from, Math.min(from + EMBEDDING_BATCH, texts.size()));
			return model.embed(slice).doOnNext((embedded) -> {
				if (embedded.size() != slice.size()) {
					throw new IllegalStateException("Embedding model '" + model.name() + "' returned "
							+ embedded.size() + " vectors for " + slice.size() + " texts");
				}
				for (int i = 0; i < embedded.size(); i++) {
					float[] vector = embedded.get(i);
					checkDimensions(vector);
					// cosine is undefined for a zero vector: such a document is found by keywords only
					vectors.set(positions.get(from + i), Vectors.hasMagnitude(vector) ? vector : null);
				}
			});
		}).then(Mono.fromSupplier(() -> vectors));
	}

	void checkDimensions(float[] vector) {
		EmbeddingModel model = Objects.requireNonNull(this.embeddingModel);
		if (vector.length != model.dimensions()) {
			throw new IllegalStateException("Embedding model '" + model.name() + "' returned a vector of "
					+ vector.length + " dimensions, but says it has " + model.dimensions());
		}
	}

}
