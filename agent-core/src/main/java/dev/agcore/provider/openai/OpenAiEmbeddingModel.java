package dev.agcore.provider.openai;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.provider.openai.wire.EmbeddingRequest;
import dev.agcore.provider.openai.wire.EmbeddingResponse;
import dev.agcore.provider.support.JsonPost;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.reactive.function.client.WebClient;

/**
 * An {@link EmbeddingModel} for the OpenAI embeddings API ({@code POST
 * {baseUrl}/embeddings}) and compatible servers (vLLM, LM Studio, LiteLLM, Ollama's
 * {@code /v1}). Every failure is reported as a {@link dev.agcore.model.ModelException};
 * nothing is retried here.
 *
 * @since 0.1.0
 */
public final class OpenAiEmbeddingModel implements EmbeddingModel {

	/** The dimensions of OpenAI's own models, used when none are configured. */
	public static final Map<String, Integer> KNOWN_DIMENSIONS = Map.of("text-embedding-3-small", 1536,
			"text-embedding-3-large", 3072, "text-embedding-ada-002", 1536);

	/** The most inputs sent in one request; OpenAI accepts 2048. */
	public static final int MAX_INPUTS_PER_REQUEST = 512;

	private static final int MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

	private final String providerName;

	private final String model;

	private final @Nullable String apiKey;

	private final int dimensions;

	private final boolean sendDimensions;

	private final URI endpoint;

	private final JsonPost post;

	private final JsonMapper jsonMapper;

	private OpenAiEmbeddingModel(Builder builder, int dimensions, boolean sendDimensions) {
		this.providerName = builder.providerName;
		this.model = Objects.requireNonNull(builder.model);
		this.apiKey = builder.apiKey;
		this.dimensions = dimensions;
		this.sendDimensions = sendDimensions;
		this.endpoint = URI.create(Objects.requireNonNull(builder.baseUrl).replaceAll("/+$", "") + "/embeddings");
		WebClient webClient = (builder.webClientBuilder != null) ? builder.webClientBuilder.clone().build()
				: WebClient.builder().build();
		this.post = new JsonPost(webClient, this.providerName, builder.responseTimeout, MAX_RESPONSE_BYTES);
		this.jsonMapper = AgentJson.mapper();
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
		if (texts.size() > MAX_INPUTS_PER_REQUEST) {
			return Mono.error(new IllegalArgumentException("At most " + MAX_INPUTS_PER_REQUEST
					+ " texts can be embedded in one request, got " + texts.size()));
		}
		List<String> input = List.copyOf(texts);
		return Mono.fromCallable(() -> writeBody(input))
			.flatMap((body) -> this.post.post(this.endpoint, this.apiKey, body))
			.map((bytes) -> readVectors(bytes, input.size()));
	}

	private byte[] writeBody(List<String> input) {
		EmbeddingRequest request = new EmbeddingRequest(this.model, input, "float",
				this.sendDimensions ? this.dimensions : null);
		try {
			return this.jsonMapper.writeValueAsBytes(request);
		}
		catch (JacksonException ex) {
			throw new ModelRequestException(this.providerName, 0,
					"Could not write the embedding request to " + this.providerName + ": " + ex.getOriginalMessage(), ex);
		}
	}

	private List<float[]> readVectors(byte[] json, int expected) {
		EmbeddingResponse response;
		try {
			response = this.jsonMapper.readValue(json, EmbeddingResponse.class);
		}
		catch (JacksonException ex) {
			throw new ModelResponseException(this.providerName, this.providerName
					+ " sent malformed JSON for embeddings (" + ex.getOriginalMessage() + ", " + json.length + " bytes)",
					ex);
		}
		List<EmbeddingResponse.Data> data = (response.data() != null) ? response.data() : List.of();
		float[][] vectors = new float[expected][];
		for (EmbeddingResponse.Data entry : data) {
			if (entry.index() < 0 || entry.index() >= expected || entry.embedding() == null
					|| vectors[entry.index()] != null) {
				throw invalid("an embedding with a missing, repeated or out-of-range index " + entry.index());
			}
			if (entry.embedding().length != this.dimensions) {
				throw invalid("a vector of " + entry.embedding().length + " dimensions for model '" + this.model
						+ "', configured for " + this.dimensions);
			}
			vectors[entry.index()] = entry.embedding();
		}
		if (data.size() != expected) {
			throw invalid(data.size() + " embeddings for " + expected + " inputs");
		}
		return Arrays.asList(vectors);
	}

	private ModelResponseException invalid(String what) {
		return new ModelResponseException(this.providerName, this.providerName + " returned " + what);
	}

	@Override
	public int dimensions() {
		return this.dimensions;
	}

	@Override
	public String name() {
		return this.providerName + ":" + this.model;
	}

	@Override
	public String toString() {
		return "OpenAiEmbeddingModel[" + name() + ", " + this.endpoint + "]";
	}

	/**
	 * Builds an {@link OpenAiEmbeddingModel}.
	 */
	public static final class Builder {

		private String providerName = OpenAiSettings.DEFAULT_PROVIDER_NAME;

		private @Nullable String baseUrl;

		private @Nullable String apiKey;

		private @Nullable String model;

		private @Nullable Integer dimensions;

		private Duration responseTimeout = OpenAiSettings.DEFAULT_RESPONSE_TIMEOUT;

		private WebClient.@Nullable Builder webClientBuilder;

		private Builder() {
		}

		/**
		 * Set the name used in errors and in {@link EmbeddingModel#name()}. Defaults to
		 * {@code openai}.
		 * @param providerName the name
		 * @return this builder
		 */
		public Builder providerName(String providerName) {
			this.providerName = requireText(providerName, "providerName");
			return this;
		}

		/**
		 * Set the API root, such as {@code https://api.openai.com/v1}. Required.
		 * @param baseUrl the root
		 * @return this builder
		 */
		public Builder baseUrl(String baseUrl) {
			this.baseUrl = requireText(baseUrl, "baseUrl");
			return this;
		}

		/**
		 * Set the API key; null or blank sends no {@code Authorization} header.
		 * @param apiKey the key
		 * @return this builder
		 */
		public Builder apiKey(@Nullable String apiKey) {
			this.apiKey = apiKey;
			return this;
		}

		/**
		 * Set the model, such as {@code text-embedding-3-small}. Required.
		 * @param model the model
		 * @return this builder
		 */
		public Builder model(String model) {
			this.model = requireText(model, "model");
			return this;
		}

		/**
		 * Set the dimensions. Required unless the model is one of
		 * {@link #KNOWN_DIMENSIONS}. For a {@code text-embedding-3} model, dimensions
		 * below its own are sent, and it shortens its vectors to them.
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
		 * Set how long to wait for a response. Defaults to 60 seconds.
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
		 * @throws IllegalStateException if the base URL or model is missing, or the
		 * dimensions of an unknown model
		 */
		public OpenAiEmbeddingModel build() {
			if (this.baseUrl == null || this.model == null) {
				throw new IllegalStateException("'baseUrl' and 'model' must be set");
			}
			Integer known = KNOWN_DIMENSIONS.get(this.model.toLowerCase(Locale.ROOT));
			if (this.dimensions == null && known == null) {
				throw new IllegalStateException("The dimensions of embedding model '" + this.model
						+ "' are unknown: set them (known models: " + KNOWN_DIMENSIONS.keySet() + ")");
			}
			if (this.dimensions == null) {
				return new OpenAiEmbeddingModel(this, known, false);
			}
			// only OpenAI's text-embedding-3 models shorten vectors; other servers may reject the field
			boolean shorten = this.model.startsWith("text-embedding-3") && !this.dimensions.equals(known);
			return new OpenAiEmbeddingModel(this, this.dimensions, shorten);
		}

		private static String requireText(@Nullable String value, String name) {
			Objects.requireNonNull(value, () -> "'" + name + "' must not be null");
			if (value.isBlank()) {
				throw new IllegalArgumentException("'" + name + "' must not be blank");
			}
			return value;
		}

	}

}
