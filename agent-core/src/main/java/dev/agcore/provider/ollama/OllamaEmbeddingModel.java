package dev.agcore.provider.ollama;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.provider.support.JsonPost;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.reactive.function.client.WebClient;

/**
 * An {@link EmbeddingModel} for Ollama's embed API ({@code POST {baseUrl}/api/embed} with
 * {@code {"model", "input": [...]}}, answered by {@code {"embeddings": [[...]]}}), such as
 * {@code nomic-embed-text} or the multilingual {@code bge-m3}. Inputs longer than the
 * model's context are truncated by Ollama. Every failure is reported as a
 * {@link dev.agcore.model.ModelException}.
 *
 * @since 0.1.0
 */
public final class OllamaEmbeddingModel implements EmbeddingModel {

	/** Ollama's address when it runs on this machine. */
	public static final String DEFAULT_BASE_URL = "http://localhost:11434";

	/** The dimensions of common Ollama embedding models, used when none are configured. */
	public static final Map<String, Integer> KNOWN_DIMENSIONS = Map.of("nomic-embed-text", 768, "mxbai-embed-large",
			1024, "bge-m3", 1024, "all-minilm", 384, "snowflake-arctic-embed", 1024, "bge-large", 1024);

	private static final String PROVIDER = "ollama";

	private static final int MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

	private final String model;

	private final int dimensions;

	private final URI endpoint;

	private final JsonPost post;

	private final JsonMapper jsonMapper = AgentJson.mapper();

	private OllamaEmbeddingModel(String baseUrl, String model, int dimensions, Duration timeout,
			WebClient.@Nullable Builder webClientBuilder) {
		this.model = model;
		this.dimensions = dimensions;
		this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + "/api/embed");
		WebClient webClient = (webClientBuilder != null) ? webClientBuilder.clone().build()
				: WebClient.builder().build();
		this.post = new JsonPost(webClient, PROVIDER, timeout, MAX_RESPONSE_BYTES);
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public Mono<List<float[]>> embed(List<String> texts) {
		Objects.requireNonNull(texts, "'texts' must not be null");
		if (texts.isEmpty()) {
			return Mono.error(new IllegalArgumentException("'texts' must not be empty"));
		}
		List<String> input = List.copyOf(texts);
		return Mono.fromCallable(() -> writeBody(input))
			.flatMap((body) -> this.post.post(this.endpoint, null, body))
			.map((bytes) -> readVectors(bytes, input.size()));
	}

	private byte[] writeBody(List<String> input) {
		try {
			return this.jsonMapper.writeValueAsBytes(new EmbedRequest(this.model, input));
		}
		catch (JacksonException ex) {
			throw new ModelRequestException(PROVIDER, 0,
					"Could not write the embedding request to ollama: " + ex.getOriginalMessage(), ex);
		}
	}

	private List<float[]> readVectors(byte[] json, int expected) {
		EmbedResponse response;
		try {
			response = this.jsonMapper.readValue(json, EmbedResponse.class);
		}
		catch (JacksonException ex) {
			throw new ModelResponseException(PROVIDER, "ollama sent malformed JSON for embeddings ("
					+ ex.getOriginalMessage() + ", " + json.length + " bytes)", ex);
		}
		List<float[]> vectors = (response.embeddings() != null) ? response.embeddings() : List.of();
		if (vectors.size() != expected) {
			throw new ModelResponseException(PROVIDER,
					"ollama returned " + vectors.size() + " embeddings for " + expected + " inputs");
		}
		for (float[] vector : vectors) {
			if (vector == null || vector.length != this.dimensions) {
				throw new ModelResponseException(PROVIDER, "ollama returned a vector of "
						+ ((vector != null) ? vector.length : 0) + " dimensions for model '" + this.model
						+ "', configured for " + this.dimensions);
			}
		}
		return vectors;
	}

	@Override
	public int dimensions() {
		return this.dimensions;
	}

	@Override
	public String name() {
		return PROVIDER + ":" + this.model;
	}

	@Override
	public String toString() {
		return "OllamaEmbeddingModel[" + name() + ", " + this.endpoint + "]";
	}

	record EmbedRequest(String model, List<String> input) {
	}

	record EmbedResponse(@Nullable List<float[]> embeddings) {
	}

	/**
	 * Builds an {@link OllamaEmbeddingModel}.
	 */
	public static final class Builder {

		private String baseUrl = DEFAULT_BASE_URL;

		private @Nullable String model;

		private @Nullable Integer dimensions;

		private Duration responseTimeout = Duration.ofSeconds(60);

		private WebClient.@Nullable Builder webClientBuilder;

		private Builder() {
		}

		/**
		 * Set Ollama's address. Defaults to {@value #DEFAULT_BASE_URL}.
		 * @param baseUrl the address, without {@code /api}
		 * @return this builder
		 */
		public Builder baseUrl(String baseUrl) {
			Objects.requireNonNull(baseUrl, "'baseUrl' must not be null");
			if (baseUrl.isBlank()) {
				throw new IllegalArgumentException("'baseUrl' must not be blank");
			}
			this.baseUrl = baseUrl;
			return this;
		}

		/**
		 * Set the model, such as {@code nomic-embed-text}. Required.
		 * @param model the model, optionally with a tag
		 * @return this builder
		 */
		public Builder model(String model) {
			Objects.requireNonNull(model, "'model' must not be null");
			if (model.isBlank()) {
				throw new IllegalArgumentException("'model' must not be blank");
			}
			this.model = model;
			return this;
		}

		/**
		 * Set the dimensions. Required unless the model is one of
		 * {@link #KNOWN_DIMENSIONS}.
		 * @param dimensions the dimensions, null for the model's known ones
		 * @return this builder
		 */
		public Builder dimensions(@Nullable Integer dimensions) {
			if (dimensions != null && dimensions < 1) {
				throw new IllegalArgumentException("'dimensions' must be at least 1, was " + dimensions);
			}
			this.dimensions = dimensions;
			return this;
		}

		/**
		 * Set how long to wait for a response (the first call also loads the model).
		 * Defaults to 60 seconds.
		 * @param responseTimeout the timeout
		 * @return this builder
		 */
		public Builder responseTimeout(Duration responseTimeout) {
			Objects.requireNonNull(responseTimeout, "'responseTimeout' must not be null");
			if (responseTimeout.isNegative() || responseTimeout.isZero()) {
				throw new IllegalArgumentException("'responseTimeout' must be positive");
			}
			this.responseTimeout = responseTimeout;
			return this;
		}

		/**
		 * Set the WebClient builder to start from. It is cloned, not modified.
		 * @param webClientBuilder the builder
		 * @return this builder
		 */
		public Builder webClientBuilder(WebClient.Builder webClientBuilder) {
			this.webClientBuilder = Objects.requireNonNull(webClientBuilder, "'webClientBuilder' must not be null");
			return this;
		}

		/**
		 * Build the model.
		 * @return the model
		 * @throws IllegalStateException if the model is missing, or the dimensions of an
		 * unknown model
		 */
		public OllamaEmbeddingModel build() {
			if (this.model == null) {
				throw new IllegalStateException("'model' must be set");
			}
			Integer dimensions = (this.dimensions != null) ? this.dimensions : knownDimensions(this.model);
			if (dimensions == null) {
				throw new IllegalStateException("The dimensions of embedding model '" + this.model
						+ "' are unknown: set them (known models: " + KNOWN_DIMENSIONS.keySet() + ")");
			}
			return new OllamaEmbeddingModel(this.baseUrl, this.model, dimensions, this.responseTimeout,
					this.webClientBuilder);
		}

		// "nomic-embed-text:latest" is "nomic-embed-text"
		private static @Nullable Integer knownDimensions(String model) {
			String name = model.toLowerCase(Locale.ROOT);
			int tag = name.indexOf(':');
			return KNOWN_DIMENSIONS.get((tag != -1) ? name.substring(0, tag) : name);
		}

	}

}
