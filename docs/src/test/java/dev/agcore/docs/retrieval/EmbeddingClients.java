package dev.agcore.docs.retrieval;

import java.util.List;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.provider.ollama.OllamaEmbeddingModel;
import dev.agcore.provider.openai.OpenAiEmbeddingModel;

/**
 * Embedding clients built in Java, from docs/retrieval.md. Compiled only: they call
 * OpenAI and Ollama, which the tests do not reach.
 */
class EmbeddingClients {

	static List<float[]> embed(String key) {
		// tag::clients[]
		EmbeddingModel openAi = OpenAiEmbeddingModel.builder()
			.baseUrl("https://api.openai.com/v1").apiKey(key).model("text-embedding-3-small").build();
		EmbeddingModel ollama = OllamaEmbeddingModel.builder().model("nomic-embed-text").build();
		List<float[]> vectors = openAi.embed(List.of("first text", "second text")).block();
		// end::clients[]
		return vectors;
	}

}
