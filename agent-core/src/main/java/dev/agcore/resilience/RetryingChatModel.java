package dev.agcore.resilience;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRetryListener;
import dev.agcore.support.LogSafe;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link ChatModel} that retries failed calls of another one with a resilience4j
 * {@link Retry}. Only {@link ModelException}s that are {@link ModelException#isRetryable()
 * retryable} are retried; waits are non-blocking. A server's {@code Retry-After} replaces
 * the backoff, and a failure whose server asks for longer than
 * {@link RetrySettings#maxRetryAfter()} is not retried: it propagates at once, its message
 * naming the wait. A stream is retried only when it
 * failed before emitting its first chunk: after that the caller has seen part of the
 * answer and the error propagates as is.
 */
public final class RetryingChatModel implements ChatModel {

	private static final Logger logger = LoggerFactory.getLogger(RetryingChatModel.class);

	private final ChatModel delegate;

	private final Retry retry;

	/**
	 * Create a model that retries with the given settings.
	 * @param delegate the model to call
	 * @param settings the retry settings
	 */
	public RetryingChatModel(ChatModel delegate, RetrySettings settings) {
		this(delegate, settings, null);
	}

	/**
	 * Create a model that retries with the given settings, taking its {@link Retry}
	 * (named {@code agent-<provider>}) from a registry so that its events and metrics
	 * can be observed. When the registry already holds a retry of that name, that retry
	 * and its configuration are used.
	 * @param delegate the model to call
	 * @param settings the retry settings
	 * @param registry the registry, or null for a standalone retry
	 */
	public RetryingChatModel(ChatModel delegate, RetrySettings settings, @Nullable RetryRegistry registry) {
		this(delegate, createRetry(Objects.requireNonNull(delegate, "'delegate' must not be null"),
				Objects.requireNonNull(settings, "'settings' must not be null"), registry));
	}

	/**
	 * Create a model that retries with a ready-made retry. Its configuration should
	 * retry only retryable {@link ModelException}s, see {@link #retryConfig}.
	 * @param delegate the model to call
	 * @param retry the retry
	 */
	public RetryingChatModel(ChatModel delegate, Retry retry) {
		this.delegate = Objects.requireNonNull(delegate, "'delegate' must not be null");
		this.retry = Objects.requireNonNull(retry, "'retry' must not be null");
	}

	/**
	 * Return the resilience4j configuration for the given settings: retryable
	 * {@link ModelException}s are retried, unless the server asked for a longer wait than
	 * {@link RetrySettings#maxRetryAfter()}.
	 * @param settings the settings
	 * @return the configuration
	 */
	public static RetryConfig retryConfig(RetrySettings settings) {
		Duration maxRetryAfter = settings.maxRetryAfter();
		return RetryConfig.custom()
			.maxAttempts(settings.maxAttempts())
			.intervalBiFunction(new RetryBackoff(settings))
			.retryOnException((ex) -> ex instanceof ModelException modelException && modelException.isRetryable()
					&& !waitsLongerThan(modelException, maxRetryAfter))
			.failAfterMaxAttempts(false)
			.build();
	}

	// retrying sooner than the server asked would only earn another refusal
	private static boolean waitsLongerThan(ModelException ex, Duration maxRetryAfter) {
		Duration retryAfter = ex.retryAfter();
		return retryAfter != null && retryAfter.compareTo(maxRetryAfter) > 0;
	}

	private static Retry createRetry(ChatModel delegate, RetrySettings settings, @Nullable RetryRegistry registry) {
		String name = "agent-" + delegate.providerName();
		RetryConfig config = retryConfig(settings);
		return (registry != null) ? registry.retry(name, config) : Retry.of(name, config);
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		return Mono.defer(() -> attemptCall(request, this.retry.asyncContext()));
	}

	private Mono<ChatResponse> attemptCall(ChatRequest request, Retry.AsyncContext<ChatResponse> context) {
		return Mono.defer(() -> this.delegate.call(request))
			.doOnSuccess((response) -> context.onComplete())
			.onErrorResume((ex) -> {
				long delay = context.onError(ex);
				if (delay < 0) {
					return Mono.error(ex);
				}
				logRetry(ex, delay);
				return notifyRetry(ex, delay)
					.then(Mono.delay(Duration.ofMillis(delay)))
					.then(Mono.defer(() -> attemptCall(request, context)));
			});
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		return Flux.defer(() -> attemptStream(request, this.retry.asyncContext()));
	}

	private Flux<ChatChunk> attemptStream(ChatRequest request, Retry.AsyncContext<ChatResponse> context) {
		AtomicBoolean emitted = new AtomicBoolean();
		return Flux.defer(() -> this.delegate.stream(request))
			.doOnNext((chunk) -> emitted.set(true))
			.doOnComplete(context::onComplete)
			.onErrorResume((ex) -> {
				if (emitted.get()) {
					// the caller has seen part of the answer: a retry would repeat it
					return Flux.error(ex);
				}
				long delay = context.onError(ex);
				if (delay < 0) {
					return Flux.error(ex);
				}
				logRetry(ex, delay);
				return notifyRetry(ex, delay)
					.then(Mono.delay(Duration.ofMillis(delay)))
					.thenMany(Flux.defer(() -> attemptStream(request, context)));
			});
	}

	// the caller's metrics and observation, if it put a listener in the context
	private static Mono<Void> notifyRetry(Throwable ex, long delay) {
		return Mono.deferContextual((view) -> {
			if (view.getOrDefault(ModelRetryListener.CONTEXT_KEY, null) instanceof ModelRetryListener listener) {
				listener.onRetry(ex, delay);
			}
			return Mono.empty();
		});
	}

	// an operator must be able to see that a provider is failing before the last attempt
	// fails too; a connection failure was logged already, with the address, where it happened
	private void logRetry(Throwable ex, long delay) {
		if (ex instanceof ModelConnectionException) {
			return;
		}
		logger.warn("Model call to provider '{}' failed, retrying in {} ms: {}", LogSafe.text(providerName()), delay,
				LogSafe.text(ex.getMessage()));
	}

	/**
	 * Return the retry, whose event publisher and metrics report every attempt.
	 * @return the retry
	 */
	public Retry retry() {
		return this.retry;
	}

	/**
	 * Return the model this one retries.
	 * @return the delegate
	 */
	public ChatModel delegate() {
		return this.delegate;
	}

	@Override
	public String providerName() {
		return this.delegate.providerName();
	}

	@Override
	public String modelName() {
		return this.delegate.modelName();
	}

	@Override
	public Set<ModelCapability> capabilities() {
		return this.delegate.capabilities();
	}

	// not retried: a health check reports the state now
	@Override
	public Mono<Void> checkHealth() {
		return this.delegate.checkHealth();
	}

}
