package dev.agcore.retrieval.lucene;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.embedding.EmbeddingModel;
import reactor.core.publisher.Mono;

/**
 * A deterministic stand-in for an embedding model: each lower-cased word adds one to a
 * hashed component, so texts sharing words are close. Counts its calls.
 */
class HashingEmbeddingModel implements EmbeddingModel {

	private final String name;

	private final int dimensions;

	final AtomicInteger calls = new AtomicInteger();

	HashingEmbeddingModel(String name, int dimensions) {
		this.name = name;
		this.dimensions = dimensions;
	}

	@Override
	public Mono<List<float[]>> embed(List<String> texts) {
		return Mono.fromSupplier(() -> {
			this.calls.incrementAndGet();
			return texts.stream().map(this::vector).toList();
		});
	}

	private float[] vector(String text) {
		float[] vector = new float[this.dimensions];
		for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
			if (!word.isEmpty()) {
				vector[Math.floorMod(word.hashCode(), this.dimensions)] += 1;
			}
		}
		return vector;
	}

	@Override
	public int dimensions() {
		return this.dimensions;
	}

	@Override
	public String name() {
		return this.name;
	}

}
