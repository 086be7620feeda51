package dev.agcore.provider.gemini;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
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
import dev.agcore.provider.gemini.wire.GeminiErrors;
import dev.agcore.provider.gemini.wire.GeminiWireMapper;
import dev.agcore.provider.gemini.wire.GenerateContentResponse;
import dev.agcore.provider.support.DeferredWebClient;
import dev.agcore.provider.support.HttpErrors;
import dev.agcore.provider.support.IdleTimeout;
import dev.agcore.provider.support.RateLimitListener;
import dev.agcore.provider.support.SseDecoder;
import dev.agcore.provider.support.SseEvent;
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
 * A {@link ChatModel} for the Google Gemini API: {@code POST
 * {baseUrl}/models/{model}:generateContent}, and {@code :streamGenerateContent?alt=sse}
 * for streams. The API key goes in the {@code x-goog-api-key} header, never in the URL,
 * so that it cannot reach logs or metrics. Every failure is reported as a
 * {@link ModelException}; nothing is retried here.
 * <p>
 * How messages, tools, thinking and ids are mapped is described on
 * {@link GeminiWireMapper}; how schemas are converted on
 * {@link dev.agcore.provider.gemini.wire.GeminiSchemas}. A prompt Gemini blocks
 * ({@code promptFeedback.blockReason}, no candidates) is answered with an empty message,
 * {@link dev.agcore.model.FinishReason#CONTENT_FILTER} and a refusal naming the reason,
 * not with an exception: the call itself worked and was billed.
 */
public final class GeminiChatModel implements ChatModel {

	// read into memory ourselves rather than through codecs, whose default limit is 256 KiB
	private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

	private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

	private static final String API_KEY_HEADER = "x-goog-api-key";

	private final GeminiSettings settings;

	// built on the first request: see DeferredWebClient
	private final DeferredWebClient webClient;

	private final JsonMapper jsonMapper;

	private final GeminiWireMapper wireMapper;

	private final RateLimitListener rateLimitListener;

	private final String baseUrl;

	private GeminiChatModel(GeminiSettings settings, DeferredWebClient webClient, JsonMapper jsonMapper,
			RateLimitListener rateLimitListener) {
		this.settings = settings;
		this.webClient = webClient;
		this.jsonMapper = jsonMapper;
		this.rateLimitListener = rateLimitListener;
		this.wireMapper = new GeminiWireMapper(settings.providerName(), jsonMapper);
		this.baseUrl = settings.baseUrl().replaceAll("/+$", "");
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		ChatOptions options = options(request);
		Duration timeout = timeout(options);
		String model = model(options);
		return Mono
			.defer(() -> post(request, options, model, false)
				.exchangeToMono((response) -> readResponse(response, model)))
			.timeout(timeout, Mono.error(() -> timeout(timeout)))
			.onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		ChatOptions options = options(request);
		Duration timeout = timeout(options);
		String model = model(options);
		return Flux.defer(() -> {
			GeminiWireMapper.StreamState state = new GeminiWireMapper.StreamState();
			boolean[] received = new boolean[1];
			Flux<DataBuffer> body = post(request, options, model, true)
				.exchangeToFlux((response) -> readStream(response, model));
			// an idle timeout before the first event and between events: comments and
			// keep-alives prove the connection lives, not that the model is answering
			Flux<SseEvent> events = IdleTimeout.watch(SseDecoder.decode(body).filter((event) -> !event.data().isBlank()),
					() -> timeout, () -> Flux.error(timeout(timeout)));
			return events.doOnNext((event) -> received[0] = true)
				.concatMapIterable((event) -> onEvent(event, state))
				.concatWith(Flux.defer(() -> incomplete(received[0], state)));
		}).onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	// a stream that stops before the model said why it stopped is a truncated answer
	private Flux<ChatChunk> incomplete(boolean received, GeminiWireMapper.StreamState state) {
		if (!received) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream without sending any event"));
		}
		if (!state.finished()) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream before the answer was complete (no finishReason)"));
		}
		return Flux.empty();
	}

	@Override
	public Mono<Void> checkHealth() {
		Duration timeout = this.settings.responseTimeout();
		URI uri = URI.create(this.baseUrl + "/models?pageSize=1");
		return Mono.defer(() -> this.webClient.client().get()
			.uri(uri)
			.headers(this::addHeaders)
			.exchangeToMono((response) -> {
				this.rateLimitListener.onHeaders(providerName(), this.settings.model(),
						response.headers().asHttpHeaders());
				if (!response.statusCode().is2xxSuccessful()) {
					return readError(response).flatMap(Mono::<Void>error);
				}
				return response.releaseBody();
			}))
			.timeout(timeout, Mono.error(() -> timeout(timeout)))
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
				ModelCapability.REASONING, ModelCapability.IMAGES, ModelCapability.PDF);
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public GeminiSettings settings() {
		return this.settings;
	}

	private ChatOptions options(ChatRequest request) {
		return request.options().withDefaults(this.settings.defaultOptions());
	}

	private Duration timeout(ChatOptions options) {
		return (options.timeout() != null) ? options.timeout() : this.settings.responseTimeout();
	}

	private String model(ChatOptions options) {
		String model = (options.model() != null && !options.model().isBlank()) ? options.model().strip()
				: this.settings.model();
		return model.startsWith("models/") ? model.substring("models/".length()) : model;
	}

	private WebClient.RequestHeadersSpec<?> post(ChatRequest request, ChatOptions options, String model,
			boolean stream) {
		byte[] body = writeBody(request, options);
		// a tuned model's full name (tunedModels/...) is its own path
		String path = model.contains("/") ? "/" + model : "/models/" + model;
		URI uri;
		try {
			uri = URI.create(this.baseUrl + path + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent"));
		}
		catch (IllegalArgumentException ex) {
			throw new ModelRequestException(providerName(), 0, "The model name '" + model + "' is not valid in a URL",
					ex);
		}
		return this.webClient.client().post()
			.uri(uri)
			.headers((headers) -> {
				addHeaders(headers);
				headers.setContentType(MediaType.APPLICATION_JSON);
				headers.setAccept(List.of(stream ? MediaType.TEXT_EVENT_STREAM : MediaType.APPLICATION_JSON));
			})
			.bodyValue(body);
	}

	private void addHeaders(HttpHeaders headers) {
		this.settings.headers().forEach(headers::set);
		if (this.settings.hasApiKey()) {
			headers.set(API_KEY_HEADER, this.settings.apiKey().strip());
		}
	}

	private byte[] writeBody(ChatRequest request, ChatOptions options) {
		ObjectNode body = this.wireMapper.toRequest(request.messages(), request.tools(), options,
				this.settings.extraBody());
		try {
			return this.jsonMapper.writeValueAsBytes(body);
		}
		catch (JacksonException ex) {
			throw new ModelRequestException(providerName(), 0,
					"Could not write the request to " + providerName() + ": " + ex.getOriginalMessage(), ex);
		}
	}

	private Mono<ChatResponse> readResponse(ClientResponse response, String model) {
		this.rateLimitListener.onHeaders(providerName(), model, response.headers().asHttpHeaders());
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response).flatMap(Mono::error);
		}
		return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_RESPONSE_BYTES)
			.map((buffer) -> toResponse(toBytes(buffer)))
			.switchIfEmpty(Mono.error(() -> new ModelResponseException(providerName(),
					providerName() + " returned HTTP " + response.statusCode().value() + " with an empty body")));
	}

	private ChatResponse toResponse(byte[] json) {
		JsonNode tree = readTree(json);
		if (tree.path("error").isObject()) {
			throw GeminiErrors.fromStreamError(providerName(), tree.get("error"),
					new String(json, StandardCharsets.UTF_8));
		}
		return this.wireMapper.toResponse(convert(tree, json.length));
	}

	private Flux<DataBuffer> readStream(ClientResponse response, String model) {
		this.rateLimitListener.onHeaders(providerName(), model, response.headers().asHttpHeaders());
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response).flatMapMany(Flux::error);
		}
		if (response.headers().contentType().filter(MediaType.APPLICATION_JSON::isCompatibleWith).isPresent()) {
			// one JSON body instead of events: an error sent with 200, or a stream without alt=sse
			return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_RESPONSE_BYTES)
				.map(GeminiChatModel::toBytes)
				.flatMapMany((json) -> {
					JsonNode tree = readTree(json);
					JsonNode first = tree.isArray() ? tree.path(0) : tree;
					if (first.path("error").isObject()) {
						return Flux.error(GeminiErrors.fromStreamError(providerName(), first.get("error"),
								new String(json, StandardCharsets.UTF_8)));
					}
					return Flux.error(new ModelResponseException(providerName(), providerName()
							+ " answered a streamed request with one JSON body instead of an event stream"));
				});
		}
		return response.bodyToFlux(DataBuffer.class);
	}

	private Mono<ModelException> readError(ClientResponse response) {
		int status = response.statusCode().value();
		HttpHeaders headers = response.headers().asHttpHeaders();
		return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_ERROR_BODY_BYTES)
			.map((buffer) -> new String(toBytes(buffer), StandardCharsets.UTF_8))
			// the status alone still says enough when the body is too large or cut
			.onErrorReturn("")
			.defaultIfEmpty("")
			.map((body) -> GeminiErrors.fromResponse(providerName(), status, headers, body));
	}

	private List<ChatChunk> onEvent(SseEvent event, GeminiWireMapper.StreamState state) {
		byte[] json = event.data().strip().getBytes(StandardCharsets.UTF_8);
		JsonNode tree = readTree(json);
		if (tree.path("error").isObject()) {
			throw GeminiErrors.fromStreamError(providerName(), tree.get("error"), event.data());
		}
		ChatChunk chunk = this.wireMapper.toChunk(convert(tree, json.length), state);
		List<ChatChunk> before = state.takeExtra();
		if (chunk == null) {
			return before;
		}
		if (before.isEmpty()) {
			return List.of(chunk);
		}
		List<ChatChunk> all = new ArrayList<>(before);
		all.add(chunk);
		return all;
	}

	private JsonNode readTree(byte[] json) {
		try {
			return this.jsonMapper.readTree(json);
		}
		catch (JacksonException ex) {
			// no excerpt of the body: it is model output about the user's conversation
			throw new ModelResponseException(providerName(), providerName() + " sent malformed JSON ("
					+ ex.getOriginalMessage() + ", " + json.length + " bytes)", ex);
		}
	}

	private GenerateContentResponse convert(JsonNode tree, int length) {
		if (!tree.isObject()) {
			throw new ModelResponseException(providerName(),
					providerName() + " sent JSON that is not an object (" + length + " bytes)");
		}
		try {
			return this.jsonMapper.treeToValue(tree, GenerateContentResponse.class);
		}
		catch (JacksonException ex) {
			throw new ModelResponseException(providerName(), providerName() + " sent an unexpected response ("
					+ ex.getOriginalMessage() + ", " + length + " bytes)", ex);
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
	 * Builds a {@link GeminiChatModel}.
	 */
	public static final class Builder {

		private @Nullable GeminiSettings settings;

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
		public Builder settings(GeminiSettings settings) {
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
		 * Set the listener told the headers of every response. Defaults to
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
		public GeminiChatModel build() {
			if (this.settings == null) {
				throw new IllegalStateException("'settings' must be set");
			}
			DeferredWebClient webClient = DeferredWebClient.of(
					(this.webClientBuilder != null) ? this.webClientBuilder.clone() : null, this.webClientBuilderSource);
			return new GeminiChatModel(this.settings, webClient,
					(this.jsonMapper != null) ? this.jsonMapper : AgentJson.mapper(), this.rateLimitListener);
		}

	}

}
