package dev.agcore.provider.ollama;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.provider.ollama.wire.OllamaChatRequest;
import dev.agcore.provider.ollama.wire.OllamaChatResponse;
import dev.agcore.provider.ollama.wire.OllamaWireMapper;
import dev.agcore.provider.support.DeferredWebClient;
import dev.agcore.provider.support.HttpErrors;
import dev.agcore.provider.support.IdleTimeout;
import dev.agcore.provider.support.NdjsonDecoder;
import dev.agcore.provider.support.RateLimitListener;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A {@link ChatModel} for Ollama's native chat API ({@code POST {baseUrl}/api/chat}),
 * streamed as newline-delimited JSON. Unlike Ollama's OpenAI-compatible {@code /v1} API it
 * carries {@code think} and the model's reasoning, {@code keep_alive}, a JSON schema as
 * {@code format}, and Ollama's own sampling options.
 * <p>
 * Ollama has no tool choice: {@link dev.agcore.model.ToolChoice#NONE} offers no tools;
 * {@code REQUIRED} and a named tool are not enforced. Images are sent as base64 bytes;
 * image URLs and other media fail with a {@link ModelRequestException}. Every failure is
 * reported as a {@link ModelException}; nothing is retried here.
 */
public final class OllamaChatModel implements ChatModel {

	// read into memory ourselves rather than through codecs, whose default limit is 256 KiB
	private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

	private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

	// how long the rest of a body may take after the last line ("done": true)
	private static final Duration MAX_DRAIN_AFTER_DONE = Duration.ofSeconds(1);

	private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

	private final OllamaChatSettings settings;

	// built on the first request: see DeferredWebClient
	private final DeferredWebClient webClient;

	private final JsonMapper jsonMapper;

	private final OllamaWireMapper wireMapper;

	private final RateLimitListener rateLimitListener;

	private final URI chatEndpoint;

	private final URI tagsEndpoint;

	private OllamaChatModel(OllamaChatSettings settings, DeferredWebClient webClient, JsonMapper jsonMapper,
			RateLimitListener rateLimitListener) {
		this.settings = settings;
		this.webClient = webClient;
		this.jsonMapper = jsonMapper;
		this.wireMapper = new OllamaWireMapper(settings.providerName(), jsonMapper);
		this.rateLimitListener = rateLimitListener;
		String root = settings.baseUrl().replaceAll("/+$", "");
		this.chatEndpoint = URI.create(root + "/api/chat");
		this.tagsEndpoint = URI.create(root + "/api/tags");
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		return Mono.defer(() -> {
			ChatOptions options = options(request);
			Duration timeout = timeout(options);
			String model = model(options);
			return post(request, options, model, false, MediaType.APPLICATION_JSON)
				.exchangeToMono((response) -> readResponse(response, model))
				.timeout(timeout, Mono.error(() -> timeout(timeout)));
		}).onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		return Flux.defer(() -> {
			ChatOptions options = options(request);
			Duration timeout = timeout(options);
			Duration drainTimeout = (timeout.compareTo(MAX_DRAIN_AFTER_DONE) < 0) ? timeout : MAX_DRAIN_AFTER_DONE;
			String model = model(options);
			StreamProgress progress = new StreamProgress();
			OllamaWireMapper.StreamState state = new OllamaWireMapper.StreamState();
			Flux<DataBuffer> body = post(request, options, model, true, NDJSON)
				.exchangeToFlux((response) -> readStream(response, model));
			// an idle timeout between lines, and before the first; after the last line
			// ("done": true) the body is read to its end, not cancelled, so that the
			// connection goes back to the pool
			Flux<OllamaChatResponse> lines = IdleTimeout.watch(
					NdjsonDecoder.decode(body)
						.map((line) -> read(line.getBytes(StandardCharsets.UTF_8)))
						.filter(progress::accept),
					() -> progress.done ? drainTimeout : timeout,
					() -> progress.done ? Flux.empty() : Flux.error(timeout(timeout)));
			// mapNotNull rather than handle: with context propagation on, handle restores
			// the thread locals around every line
			return lines.mapNotNull((line) -> this.wireMapper.toChunk(line, state))
				.concatWith(Flux.defer(() -> incomplete(progress)));
		}).onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	/**
	 * List the local models ({@code GET {baseUrl}/api/tags}), which spends no tokens and
	 * loads no model.
	 * @return a Mono that completes empty when Ollama answered
	 */
	@Override
	public Mono<Void> checkHealth() {
		Duration timeout = this.settings.responseTimeout();
		return Mono.defer(() -> this.webClient.client().get()
			.uri(this.tagsEndpoint)
			.headers((headers) -> addHeaders(headers, MediaType.APPLICATION_JSON))
			.exchangeToMono((response) -> {
				this.rateLimitListener.onHeaders(providerName(), modelName(), response.headers().asHttpHeaders());
				if (!response.statusCode().is2xxSuccessful()) {
					return readError(response, modelName(), this.tagsEndpoint).flatMap(Mono::<Void>error);
				}
				return response.releaseBody();
			})
			.timeout(timeout, Mono.error(() -> timeout(timeout))))
			.onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	@Override
	public String providerName() {
		return this.settings.providerName();
	}

	@Override
	public String modelName() {
		return this.settings.model();
	}

	@Override
	public Set<ModelCapability> capabilities() {
		return EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING, ModelCapability.STRUCTURED_OUTPUT,
				ModelCapability.REASONING, ModelCapability.IMAGES);
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public OllamaChatSettings settings() {
		return this.settings;
	}

	private ChatOptions options(ChatRequest request) {
		return request.options().withDefaults(this.settings.defaultOptions());
	}

	private String model(ChatOptions options) {
		return (options.model() != null && !options.model().isBlank()) ? options.model().strip()
				: this.settings.model();
	}

	private Duration timeout(ChatOptions options) {
		return (options.timeout() != null) ? options.timeout() : this.settings.responseTimeout();
	}

	private WebClient.RequestHeadersSpec<?> post(ChatRequest request, ChatOptions options, String model,
			boolean stream, MediaType accept) {
		byte[] body = writeBody(request, options, model, stream);
		return this.webClient.client().post()
			.uri(this.chatEndpoint)
			.headers((headers) -> addHeaders(headers, accept))
			.bodyValue(body);
	}

	private void addHeaders(HttpHeaders headers, MediaType accept) {
		this.settings.headers().forEach(headers::set);
		headers.setContentType(MediaType.APPLICATION_JSON);
		// an error comes as JSON even when a stream was asked for
		headers.setAccept(accept.equals(MediaType.APPLICATION_JSON) ? List.of(accept)
				: List.of(accept, MediaType.APPLICATION_JSON));
		if (this.settings.hasApiKey()) {
			headers.setBearerAuth(this.settings.apiKey().strip());
		}
	}

	private byte[] writeBody(ChatRequest request, ChatOptions options, String model, boolean stream) {
		OllamaChatRequest body = this.wireMapper.toRequest(request.messages(), request.tools(), options, model,
				this.settings.keepAlive(), stream);
		try {
			ObjectNode json = this.jsonMapper.valueToTree(body);
			for (Map.Entry<String, Object> extra : this.settings.extraBody().entrySet()) {
				merge(json, extra.getKey(), this.jsonMapper.valueToTree(extra.getValue()));
			}
			return this.jsonMapper.writeValueAsBytes(json);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			throw new ModelRequestException(providerName(), 0,
					"Could not write the request to " + providerName() + ": " + ex.getMessage(), ex);
		}
	}

	// objects are merged field by field, so that extra "options" such as num_ctx join the
	// mapped ones instead of replacing them; anything else replaces the mapped value
	private static void merge(ObjectNode target, String name, @Nullable JsonNode value) {
		JsonNode existing = target.get(name);
		if (existing instanceof ObjectNode existingObject && value instanceof ObjectNode valueObject) {
			for (Map.Entry<String, JsonNode> field : valueObject.properties()) {
				merge(existingObject, field.getKey(), field.getValue());
			}
			return;
		}
		target.set(name, value);
	}

	private Mono<ChatResponse> readResponse(ClientResponse response, String model) {
		this.rateLimitListener.onHeaders(providerName(), model, response.headers().asHttpHeaders());
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response, model, this.chatEndpoint).flatMap(Mono::error);
		}
		return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_RESPONSE_BYTES)
			.map((buffer) -> this.wireMapper.toResponse(read(toBytes(buffer))))
			.switchIfEmpty(Mono.error(() -> new ModelResponseException(providerName(),
					providerName() + " returned HTTP " + response.statusCode().value() + " with an empty body")));
	}

	private Flux<DataBuffer> readStream(ClientResponse response, String model) {
		this.rateLimitListener.onHeaders(providerName(), model, response.headers().asHttpHeaders());
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response, model, this.chatEndpoint).flatMapMany(Flux::error);
		}
		return response.bodyToFlux(DataBuffer.class);
	}

	private Mono<ModelException> readError(ClientResponse response, String model, URI endpoint) {
		int status = response.statusCode().value();
		HttpHeaders headers = response.headers().asHttpHeaders();
		return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_ERROR_BODY_BYTES)
			.map((buffer) -> new String(toBytes(buffer), StandardCharsets.UTF_8))
			// the status alone still says enough when the body is too large or cut
			.onErrorReturn("")
			.defaultIfEmpty("")
			.map((body) -> toException(status, headers, body, model, endpoint));
	}

	private ModelException toException(int status, HttpHeaders headers, String body, String model,
			URI endpoint) {
		ModelException mapped = HttpErrors.fromResponse(providerName(), status, headers, body);
		if (status != 404) {
			return mapped;
		}
		// Ollama answers an unknown model with 404 {"error":"model \"x\" not found, try
		// pulling it first"}; any other 404 is a wrong address (Go's "404 page not found")
		if (body.contains("\"error\"") && body.contains("model")) {
			return new ModelRequestException(providerName(), status, providerName() + " has no model '" + model
					+ "' (" + mapped.getMessage() + "): pull it with `ollama pull " + model + "`");
		}
		return new ModelRequestException(providerName(), status, mapped.getMessage() + " for "
				+ endpoint.getPath()
				+ ": check the base URL, Ollama's address without /api or /v1 (such as http://localhost:11434)");
	}

	// a stream that stops before Ollama's last line ("done": true) is a truncated answer,
	// never a final one: a dropped connection or a proxy cutting it
	private Flux<ChatChunk> incomplete(StreamProgress progress) {
		if (!progress.received) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream without sending any line"));
		}
		if (!progress.done) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream before the answer was complete (no \"done\": true)"));
		}
		return Flux.empty();
	}

	private OllamaChatResponse read(byte[] json) {
		try {
			return this.jsonMapper.readValue(json, OllamaChatResponse.class);
		}
		catch (JacksonException ex) {
			// no excerpt of the body: it is model output about the user's conversation
			throw new ModelResponseException(providerName(), providerName() + " sent malformed JSON ("
					+ ex.getOriginalMessage() + ", " + json.length + " bytes)", ex);
		}
	}

	private ModelTimeoutException timeout(Duration timeout) {
		return new ModelTimeoutException(providerName(),
				providerName() + " did not respond within " + timeout.toMillis() + " ms", null);
	}

	private static byte[] toBytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	/**
	 * Where one stream stands. Written by one signal at a time, read by the timeout on
	 * another thread.
	 */
	private static final class StreamProgress {

		volatile boolean received;

		volatile boolean done;

		// lines after the last are drained, not mapped
		boolean accept(OllamaChatResponse line) {
			if (this.done) {
				return false;
			}
			this.received = true;
			this.done = line.last();
			return true;
		}

	}

	/**
	 * Builds an {@link OllamaChatModel}.
	 */
	public static final class Builder {

		private @Nullable OllamaChatSettings settings;

		private WebClient.@Nullable Builder webClientBuilder;

		private @Nullable Supplier<WebClient.Builder> webClientBuilderSource;

		private @Nullable JsonMapper jsonMapper;

		private RateLimitListener rateLimitListener = RateLimitListener.NONE;

		private Builder() {
		}

		/**
		 * Set the settings. Required.
		 * @param settings the settings
		 * @return this builder
		 */
		public Builder settings(OllamaChatSettings settings) {
			this.settings = Objects.requireNonNull(settings, "'settings' must not be null");
			return this;
		}

		/**
		 * Set the WebClient builder to start from, to share a connection pool or add
		 * filters. It is cloned, not modified. Defaults to {@link WebClient#builder()}.
		 * @param webClientBuilder the builder
		 * @return this builder
		 */
		public Builder webClientBuilder(WebClient.Builder webClientBuilder) {
			this.webClientBuilder = Objects.requireNonNull(webClientBuilder, "'webClientBuilder' must not be null");
			this.webClientBuilderSource = null;
			return this;
		}

		/**
		 * Set where the WebClient builder to start from comes from, asked when the model
		 * sends its first request rather than now: creating a builder such as Spring
		 * Boot's (its connector, codecs and observations) is work an application's
		 * startup need not do. The builder is cloned, not modified.
		 * @param webClientBuilder the source of the builder
		 * @return this builder
		 */
		public Builder webClientBuilder(Supplier<WebClient.Builder> webClientBuilder) {
			this.webClientBuilderSource = Objects.requireNonNull(webClientBuilder,
					"'webClientBuilder' must not be null");
			this.webClientBuilder = null;
			return this;
		}

		/**
		 * Set the JSON mapper. Defaults to {@link AgentJson#mapper()}.
		 * @param jsonMapper the mapper
		 * @return this builder
		 */
		public Builder jsonMapper(JsonMapper jsonMapper) {
			this.jsonMapper = Objects.requireNonNull(jsonMapper, "'jsonMapper' must not be null");
			return this;
		}

		/**
		 * Set the listener told the headers of every response. Ollama itself sends no
		 * rate-limit headers; a proxy or Ollama's cloud may. Defaults to
		 * {@link RateLimitListener#NONE}.
		 * @param rateLimitListener the listener
		 * @return this builder
		 */
		public Builder rateLimitListener(RateLimitListener rateLimitListener) {
			this.rateLimitListener = Objects.requireNonNull(rateLimitListener, "'rateLimitListener' must not be null");
			return this;
		}

		/**
		 * Build the model.
		 * @return the model
		 * @throws IllegalStateException if no settings were given
		 */
		public OllamaChatModel build() {
			if (this.settings == null) {
				throw new IllegalStateException("'settings' must be set");
			}
			DeferredWebClient webClient = DeferredWebClient.of(
					(this.webClientBuilder != null) ? this.webClientBuilder.clone() : null, this.webClientBuilderSource);
			return new OllamaChatModel(this.settings, webClient,
					(this.jsonMapper != null) ? this.jsonMapper : AgentJson.mapper(), this.rateLimitListener);
		}

	}

}
