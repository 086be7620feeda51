package dev.agcore.provider.anthropic;

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
import dev.agcore.provider.anthropic.wire.AnthropicStreamMapper;
import dev.agcore.provider.anthropic.wire.AnthropicRequestMapper;
import dev.agcore.provider.anthropic.wire.AnthropicResponseMapper;
import dev.agcore.provider.anthropic.wire.MessagesResponse;
import dev.agcore.provider.anthropic.wire.StreamEvent;
import dev.agcore.provider.support.DeferredWebClient;
import dev.agcore.provider.support.HttpErrors;
import dev.agcore.provider.support.IdleTimeout;
import dev.agcore.provider.support.RateLimitListener;
import dev.agcore.provider.support.SseDecoder;
import dev.agcore.provider.support.SseEvent;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A {@link ChatModel} for the Anthropic Messages API ({@code POST {baseUrl}/v1/messages}).
 * Every failure is reported as a {@link ModelException}; nothing is retried here (see
 * {@link dev.agcore.resilience.RetryingChatModel}).
 * <p>
 * A JSON schema {@link dev.agcore.model.ResponseFormat} is sent as a tool named
 * {@value AnthropicRequestMapper#ANSWER_TOOL} whose call becomes the answer text. Options
 * Anthropic lacks (seed, penalties, reasoning effort) are ignored.
 */
public final class AnthropicChatModel implements ChatModel {

	private static final Logger logger = LoggerFactory.getLogger(AnthropicChatModel.class);

	// read into memory ourselves rather than through codecs, whose default limit is 256 KiB
	private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

	private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

	// how long the rest of a body may take after message_stop; a server that holds it open
	// longer loses the connection, though the answer is complete
	private static final Duration MAX_DRAIN_AFTER_STOP = Duration.ofSeconds(1);

	private static final Set<ModelCapability> CAPABILITIES = Set.copyOf(EnumSet.of(ModelCapability.TOOLS,
			ModelCapability.STREAMING, ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING,
			ModelCapability.IMAGES, ModelCapability.PDF, ModelCapability.PROMPT_CACHING));

	private final AnthropicSettings settings;

	// built on the first request: see DeferredWebClient
	private final DeferredWebClient webClient;

	private final JsonMapper jsonMapper;

	private final AnthropicRequestMapper requestMapper;

	private final AnthropicResponseMapper responseMapper;

	private final RateLimitListener rateLimitListener;

	private final URI messagesEndpoint;

	private final URI modelsEndpoint;

	private AnthropicChatModel(AnthropicSettings settings, DeferredWebClient webClient, JsonMapper jsonMapper,
			RateLimitListener rateLimitListener) {
		this.settings = settings;
		this.webClient = webClient;
		this.jsonMapper = jsonMapper;
		this.requestMapper = new AnthropicRequestMapper(settings.providerName(), jsonMapper);
		this.responseMapper = new AnthropicResponseMapper(settings.providerName(), jsonMapper);
		this.rateLimitListener = rateLimitListener;
		String root = settings.baseUrl().replaceAll("/+$", "");
		// a base URL copied with its /v1 still works
		String api = root.endsWith("/v1") ? root : root + "/v1";
		this.messagesEndpoint = URI.create(api + "/messages");
		this.modelsEndpoint = URI.create(api + "/models?limit=1");
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
			boolean answerTool = AnthropicRequestMapper.usesAnswerTool(options);
			return post(request, options, false)
				.exchangeToMono((response) -> readResponse(response, options, answerTool))
				.timeout(timeout, Mono.error(() -> timeout(timeout)));
		}).onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		return Flux.defer(() -> {
			ChatOptions options = options(request);
			Duration timeout = timeout(options);
			Duration drainTimeout = (timeout.compareTo(MAX_DRAIN_AFTER_STOP) < 0) ? timeout : MAX_DRAIN_AFTER_STOP;
			AnthropicStreamMapper mapper = new AnthropicStreamMapper(providerName(), this.responseMapper,
					AnthropicRequestMapper.usesAnswerTool(options));
			StreamProgress progress = new StreamProgress();
			Flux<DataBuffer> body = post(request, options, true)
				.exchangeToFlux((response) -> readStream(response, options));
			// an idle timeout between events, and before the first: pings prove the
			// connection lives, not that the model is answering
			Flux<SseEvent> events = IdleTimeout.watch(
					SseDecoder.decode(body)
						.filter(AnthropicChatModel::carriesData)
						.doOnNext((event) -> progress.received = true),
					() -> progress.stopped ? drainTimeout : timeout,
					() -> progress.stopped ? Flux.empty() : Flux.error(timeout(timeout)));
			// after message_stop the body is read to its end, not cancelled, so that the
			// connection goes back to the pool instead of being closed
			// mapNotNull rather than handle: with context propagation on, handle restores
			// the thread locals around every event
			return events.filter((event) -> !progress.stopped).mapNotNull((event) -> {
				ChatChunk chunk = mapper.onEvent(read(event.data().getBytes(StandardCharsets.UTF_8),
						StreamEvent.class));
				progress.stopped = mapper.stopped();
				return chunk;
			}).concatWith(Flux.defer(() -> incomplete(progress)));
		}).onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	// pings are keep-alives: they do not count as progress, so they are dropped before the
	// idle timeout sees them
	private static boolean carriesData(SseEvent event) {
		return !event.data().isBlank() && !"ping".equals(event.event());
	}

	// a stream that ends before message_stop is a truncated answer, never a final one
	private Flux<ChatChunk> incomplete(StreamProgress progress) {
		if (!progress.received) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream without sending any event"));
		}
		if (!progress.stopped) {
			return Flux.error(new ModelResponseException(providerName(),
					providerName() + " ended the stream before the answer was complete (no message_stop)"));
		}
		return Flux.empty();
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
		return CAPABILITIES;
	}

	/**
	 * Check reachability and the key by listing one model, which spends no tokens.
	 * @return a Mono that completes empty on any 2xx answer
	 */
	@Override
	public Mono<Void> checkHealth() {
		Duration timeout = this.settings.responseTimeout();
		return Mono.defer(() -> this.webClient.client().get()
			.uri(this.modelsEndpoint)
			.headers((headers) -> headers(headers, MediaType.APPLICATION_JSON))
			.exchangeToMono((response) -> {
				notifyHeaders(response, this.settings.model());
				if (!response.statusCode().is2xxSuccessful()) {
					return readError(response).flatMap(Mono::<Void>error);
				}
				return response.releaseBody();
			}))
			.timeout(timeout, Mono.error(() -> timeout(timeout)))
			.onErrorMap((ex) -> HttpErrors.fromThrowable(providerName(), ex));
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public AnthropicSettings settings() {
		return this.settings;
	}

	private ChatOptions options(ChatRequest request) {
		return request.options().withDefaults(this.settings.defaultOptions());
	}

	private Duration timeout(ChatOptions options) {
		return (options.timeout() != null) ? options.timeout() : this.settings.responseTimeout();
	}

	private String model(ChatOptions options) {
		return (options.model() != null && !options.model().isBlank()) ? options.model() : this.settings.model();
	}

	private WebClient.RequestHeadersSpec<?> post(ChatRequest request, ChatOptions options, boolean stream) {
		byte[] body = writeBody(request, options, stream);
		MediaType accept = stream ? MediaType.TEXT_EVENT_STREAM : MediaType.APPLICATION_JSON;
		return this.webClient.client().post()
			.uri(this.messagesEndpoint)
			.headers((headers) -> headers(headers, accept))
			.bodyValue(body);
	}

	private void headers(HttpHeaders headers, MediaType accept) {
		headers.setContentType(MediaType.APPLICATION_JSON);
		headers.setAccept(List.of(accept));
		headers.set("x-api-key", this.settings.apiKey().strip());
		headers.set("anthropic-version", this.settings.apiVersion());
		for (Map.Entry<String, String> header : this.settings.headers().entrySet()) {
			headers.set(header.getKey(), header.getValue());
		}
	}

	private byte[] writeBody(ChatRequest request, ChatOptions options, boolean stream) {
		try {
			return this.jsonMapper.writeValueAsBytes(this.requestMapper.toRequest(request.messages(), request.tools(),
					options, model(options), stream, this.settings.promptCaching(), this.settings.extraBody()));
		}
		catch (JacksonException ex) {
			throw new ModelRequestException(providerName(), 0,
					"Could not write the request to " + providerName() + ": " + ex.getOriginalMessage(), ex);
		}
	}

	private void notifyHeaders(ClientResponse response, String model) {
		try {
			this.rateLimitListener.onHeaders(providerName(), model, response.headers().asHttpHeaders());
		}
		catch (RuntimeException ex) {
			// a listener's bug must not fail the call
			logger.warn("Rate-limit listener failed for provider '{}'", LogSafe.text(providerName()),
					LogSafe.throwable(ex));
		}
	}

	private Mono<ChatResponse> readResponse(ClientResponse response, ChatOptions options, boolean answerTool) {
		notifyHeaders(response, model(options));
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response).flatMap(Mono::error);
		}
		return readBody(response, answerTool);
	}

	private Mono<ChatResponse> readBody(ClientResponse response, boolean answerTool) {
		return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_RESPONSE_BYTES)
			.map((buffer) -> this.responseMapper.toResponse(read(toBytes(buffer), MessagesResponse.class), answerTool))
			.switchIfEmpty(Mono.error(() -> new ModelResponseException(providerName(),
					providerName() + " returned HTTP " + response.statusCode().value() + " with an empty body")));
	}

	private Flux<DataBuffer> readStream(ClientResponse response, ChatOptions options) {
		notifyHeaders(response, model(options));
		if (!response.statusCode().is2xxSuccessful()) {
			return readError(response).flatMapMany(Flux::error);
		}
		if (response.headers().contentType().filter(MediaType.APPLICATION_JSON::isCompatibleWith).isPresent()) {
			// one JSON body instead of events: an error sent with 200 (its own message says
			// more than "no event"), or a server that ignored "stream": true
			return readBody(response, false).flatMapMany((whole) -> Flux.error(new ModelResponseException(
					providerName(),
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

		volatile boolean received;

		volatile boolean stopped;

	}

	/**
	 * Builds an {@link AnthropicChatModel}.
	 */
	public static final class Builder {

		private @Nullable AnthropicSettings settings;

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
		public Builder settings(AnthropicSettings settings) {
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
		 * Set the listener told every response's headers, successful or not, such as
		 * {@code anthropic-ratelimit-*}. Defaults to {@link RateLimitListener#NONE}.
		 * @param rateLimitListener the listener
		 * @return this builder
		 */
		public Builder rateLimitListener(RateLimitListener rateLimitListener) {
			this.rateLimitListener = Objects.requireNonNull(rateLimitListener,
					"'rateLimitListener' must not be null");
			return this;
		}

		/**
		 * Build the model.
		 * @return the model
		 * @throws IllegalStateException if no settings were given
		 */
		public AnthropicChatModel build() {
			if (this.settings == null) {
				throw new IllegalStateException("'settings' must be set");
			}
			DeferredWebClient webClient = DeferredWebClient.of(
					(this.webClientBuilder != null) ? this.webClientBuilder.clone() : null, this.webClientBuilderSource);
			return new AnthropicChatModel(this.settings, webClient,
					(this.jsonMapper != null) ? this.jsonMapper : AgentJson.mapper(), this.rateLimitListener);
		}

	}

}
