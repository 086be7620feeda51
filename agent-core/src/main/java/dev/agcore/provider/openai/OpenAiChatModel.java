package dev.agcore.provider.openai;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.provider.openai.wire.ChatCompletionChunk;
import dev.agcore.provider.openai.wire.ChatCompletionRequest;
import dev.agcore.provider.openai.wire.ChatCompletionResponse;
import dev.agcore.provider.openai.wire.OpenAiWireMapper;
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
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * A {@link ChatModel} for the OpenAI chat completions API ({@code POST
 * {baseUrl}/chat/completions}) and compatible servers (Azure OpenAI, DeepSeek, Qwen,
 * Mistral, Groq, OpenRouter, vLLM, LM Studio, Ollama); see {@link OpenAiSettings} and
 * {@link OpenAiQuirks} for how they differ. Every failure is reported as a
 * {@link ModelException}; nothing is retried here (see
 * {@link dev.agcore.resilience.RetryingChatModel}).
 */
public final class OpenAiChatModel implements ChatModel {

	// read into memory ourselves rather than through codecs, whose default limit is 256 KiB
	private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

	private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

	private static final String DONE = "[DONE]";

	// how long the rest of a body may take after [DONE]; a server that holds it open longer
	// loses the connection, though the answer is complete
	private static final Duration MAX_DRAIN_AFTER_DONE = Duration.ofSeconds(1);

	private final OpenAiSettings settings;

	// built on the first request: see DeferredWebClient
	private final DeferredWebClient webClient;

	private final JsonMapper jsonMapper;

	private final OpenAiWireMapper wireMapper;

	private final URI endpoint;

	private final URI modelsEndpoint;

	private final RateLimitListener rateLimitListener;

	private final ChatOptions defaults;

	private OpenAiChatModel(OpenAiSettings settings, DeferredWebClient webClient, JsonMapper jsonMapper,
			RateLimitListener rateLimitListener) {
		this.settings = settings;
		this.webClient = webClient;
		this.jsonMapper = jsonMapper;
		this.rateLimitListener = rateLimitListener;
		OpenAiQuirks quirks = settings.quirks();
		this.wireMapper = new OpenAiWireMapper(settings.providerName(),
				new OpenAiWireMapper.Dialect(quirks.developerRole(), quirks.maxCompletionTokens(), quirks.streamUsage(),
						quirks.randomSeed(), quirks.sendReasoningContent()),
				settings.capabilities());
		String base = settings.baseUrl().replaceAll("/+$", "");
		String path = settings.chatPath().startsWith("/") ? settings.chatPath() : "/" + settings.chatPath();
		this.endpoint = uri(base + path, settings.queryParameters());
		this.modelsEndpoint = uri(base + "/models", settings.queryParameters());
		this.defaults = settings.effectiveDefaults();
	}

	private static URI uri(String url, Map<String, String> queryParameters) {
		if (queryParameters.isEmpty()) {
			return URI.create(url);
		}
		UriComponentsBuilder builder = UriComponentsBuilder.fromUriString(url);
		queryParameters.forEach(builder::queryParam);
		return builder.encode().build().toUri();
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		ChatOptions options = request.options().withDefaults(this.defaults);
		Duration timeout = timeout(options);
		return Mono
			.defer(() -> post(request, options, false, MediaType.APPLICATION_JSON).exchangeToMono(this::readResponse))
			.timeout(timeout, Mono.error(() -> timeout(timeout)))
			.onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		ChatOptions options = request.options().withDefaults(this.defaults);
		Duration timeout = timeout(options);
		Duration drainTimeout = (timeout.compareTo(MAX_DRAIN_AFTER_DONE) < 0) ? timeout : MAX_DRAIN_AFTER_DONE;
		return Flux.defer(() -> {
			StreamProgress progress = new StreamProgress();
			Flux<DataBuffer> body = post(request, options, true, MediaType.TEXT_EVENT_STREAM)
				.exchangeToFlux(this::readStream);
			// an idle timeout between data events, and before the first: comments and
			// keep-alives prove the connection lives, not that the model is answering
			Flux<SseEvent> events = IdleTimeout.watch(
					SseDecoder.decode(body).filter(OpenAiChatModel::carriesData).doOnNext(progress::onEvent),
					() -> progress.done ? drainTimeout : timeout,
					() -> progress.done ? Flux.empty() : Flux.error(timeout(timeout)));
			// after [DONE] the body is read to its end, not cancelled, so that the connection
			// goes back to the pool instead of being closed
			// mapNotNull rather than handle: with context propagation on, handle restores
			// the thread locals around every event
			return events.filter((event) -> !progress.done)
				.mapNotNull(this::toChunk)
				.doOnNext(progress::onChunk)
				.concatWith(Flux.defer(() -> incomplete(progress)));
		}).onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	private static boolean carriesData(SseEvent event) {
		return !event.data().isBlank() || "error".equals(event.event());
	}

	// a stream that stops before the model said why it stopped is a truncated answer, never
	// a final one: a dropped connection, a proxy cutting it, or chunks without choices
	private Flux<ChatChunk> incomplete(StreamProgress progress) {
		if (!progress.received) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream without sending any event"));
		}
		if (!progress.finished) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream before the answer was complete (no finish_reason)"));
		}
		return Flux.empty();
	}

	private Duration timeout(ChatOptions options) {
		return (options.timeout() != null) ? options.timeout() : this.settings.responseTimeout();
	}

	@Override
	public Set<ModelCapability> capabilities() {
		return this.settings.capabilities();
	}

	/**
	 * Check the server by listing its models ({@code GET {baseUrl}/models}), which spends
	 * no tokens.
	 * @return a Mono that completes empty on a 2xx answer, or fails with a
	 * {@link ModelException}
	 */
	@Override
	public Mono<Void> checkHealth() {
		Duration timeout = this.settings.responseTimeout();
		return Mono.defer(() -> this.webClient.client().get()
			.uri(this.modelsEndpoint)
			.headers((headers) -> addHeaders(headers, MediaType.APPLICATION_JSON))
			.exchangeToMono((response) -> {
				notifyRateLimits(response);
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

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public OpenAiSettings settings() {
		return this.settings;
	}

	private WebClient.RequestHeadersSpec<?> post(ChatRequest request, ChatOptions options, boolean stream,
			MediaType accept) {
		byte[] body = writeBody(request, options, stream);
		return this.webClient.client().post()
			.uri(this.endpoint)
			.headers((headers) -> {
				headers.setContentType(MediaType.APPLICATION_JSON);
				addHeaders(headers, accept);
			})
			.bodyValue(body);
	}

	private void addHeaders(HttpHeaders headers, MediaType accept) {
		headers.setAccept(List.of(accept));
		this.settings.headers().forEach(headers::set);
		String apiKey = this.settings.apiKey();
		if (apiKey != null && !apiKey.isBlank()) {
			if (this.settings.authStyle() == OpenAiSettings.AuthStyle.API_KEY) {
				headers.set("api-key", apiKey.strip());
			}
			else {
				headers.setBearerAuth(apiKey.strip());
			}
		}
	}

	private void notifyRateLimits(ClientResponse response) {
		try {
			this.rateLimitListener.onHeaders(providerName(), modelName(), response.headers().asHttpHeaders());
		}
		catch (RuntimeException ex) {
			// a listener's failure must not fail the call
		}
	}

	private byte[] writeBody(ChatRequest request, ChatOptions options, boolean stream) {
		String model = (options.model() != null && !options.model().isBlank()) ? options.model()
				: this.settings.model();
		ChatCompletionRequest body = this.wireMapper.toRequest(request.messages(), request.tools(), model, options,
				stream);
		try {
			if (this.settings.extraBody().isEmpty()) {
				return this.jsonMapper.writeValueAsBytes(body);
			}
			ObjectNode tree = this.jsonMapper.valueToTree(body);
			this.settings.extraBody().forEach((name, value) -> tree.set(name, this.jsonMapper.valueToTree(value)));
			return this.jsonMapper.writeValueAsBytes(tree);
		}
		catch (JacksonException ex) {
			throw new ModelRequestException(providerName(), 0,
					"Could not write the request to " + providerName() + ": " + ex.getOriginalMessage(), ex);
		}
	}

	private Mono<ChatResponse> readResponse(ClientResponse response) {
		notifyRateLimits(response);
		return readBody(response);
	}

	private Mono<ChatResponse> readBody(ClientResponse response) {
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response).flatMap(Mono::error);
		}
		return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_RESPONSE_BYTES)
			.map((buffer) -> this.wireMapper.toResponse(read(toBytes(buffer), ChatCompletionResponse.class)))
			.switchIfEmpty(Mono.error(() -> new ModelResponseException(providerName(),
					providerName() + " returned HTTP " + response.statusCode().value() + " with an empty body")));
	}

	private Flux<DataBuffer> readStream(ClientResponse response) {
		notifyRateLimits(response);
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response).flatMapMany(Flux::error);
		}
		if (response.headers().contentType().filter(MediaType.APPLICATION_JSON::isCompatibleWith).isPresent()) {
			// one JSON body instead of events: an error some servers send with 200 (its own
			// message says more than "no event"), or a server that ignored "stream": true
			return readBody(response).flatMapMany((whole) -> Flux.error(new ModelResponseException(providerName(),
					providerName() + " answered a streamed request with one JSON body instead of an event stream")));
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
			.map((body) -> HttpErrors.fromResponse(providerName(), status, headers, body));
	}

	private @Nullable ChatChunk toChunk(SseEvent event) {
		String data = event.data().strip();
		if ("error".equals(event.event())) {
			throw new ModelServerException(providerName(), 0, providerName() + " reported an error: " + data);
		}
		if (data.isEmpty()) {
			return null;
		}
		return this.wireMapper.toChunk(read(data.getBytes(StandardCharsets.UTF_8), ChatCompletionChunk.class));
	}

	private <T> T read(byte[] json, Class<T> type) {
		try {
			return this.jsonMapper.readValue(json, type);
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

		// any data event, [DONE] included
		volatile boolean received;

		volatile boolean done;

		volatile boolean finished;

		void onEvent(SseEvent event) {
			this.received = true;
			if (DONE.equals(event.data().strip())) {
				this.done = true;
			}
		}

		void onChunk(ChatChunk chunk) {
			if (chunk.finishReason() != null) {
				this.finished = true;
			}
		}

	}

	/**
	 * Builds an {@link OpenAiChatModel}.
	 */
	public static final class Builder {

		private @Nullable OpenAiSettings settings;

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
		public Builder settings(OpenAiSettings settings) {
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
		 * Set the listener told the headers of every response, to record rate limits.
		 * Defaults to {@link RateLimitListener#NONE}.
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
		public OpenAiChatModel build() {
			if (this.settings == null) {
				throw new IllegalStateException("'settings' must be set");
			}
			DeferredWebClient webClient = DeferredWebClient.of(
					(this.webClientBuilder != null) ? this.webClientBuilder.clone() : null, this.webClientBuilderSource);
			return new OpenAiChatModel(this.settings, webClient,
					(this.jsonMapper != null) ? this.jsonMapper : AgentJson.mapper(), this.rateLimitListener);
		}

	}

}
