package dev.agcore.autoconfigure.embedding;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.embedding.onnx.LocalOnnxEmbeddingModel;

/**
 * Creates the in-process model; a class of its own so that nothing of it is loaded
 * unless that model is asked for.
 */
final class LocalEmbeddingModels {

	private LocalEmbeddingModels() {
	}

	static EmbeddingModel create() {
		return new LocalOnnxEmbeddingModel();
	}

}
