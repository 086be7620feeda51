package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelException;
import dev.agcore.support.LogSafe;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * When a model call fails with a retryable {@link ModelException} (or a failure the
 * configured predicate accepts), sends the same request to the next fallback model, in
 * order, until one answers or a failure is not eligible. Each switch increments
 * {@code agent.model.fallbacks} (tags {@code agent}, {@code from}, {@code to}, the models
 * as {@code provider/model}). When every fallback fails, the turn fails with the last
 * failure, the earlier ones attached as suppressed exceptions.
 * <p>
 * The request goes to a fallback without the per-request model override
 * ({@link ChatOptions#model()}), so each fallback uses its own model. Fallbacks are called
 * with {@link ChatModel#call}: on a streamed turn a fallback's answer arrives as one text
 * event rather than as deltas, after a {@link dev.agcore.runtime.AgentEvent.TextReset} when
 * the failed model had streamed some text. Put retries (a
 * {@link dev.agcore.resilience.RetryingChatModel}) inside: this middleware sees a failure
 * only once the primary model has given up.
 * <pre>
 * agent.middleware(ModelFallbackMiddleware.builder(backupModel, cheapModel).primary(mainModel).build());
 * </pre>
 */
public final class ModelFallbackMiddleware implements AgentMiddleware {

	private static final Logger logger = LoggerFactory.getLogger(ModelFallbackMiddleware.class);

	/** Fall back on failures that may succeed elsewhere: retryable model exceptions. */
	public static final Predicate<Throwable> RETRYABLE = (ex) -> ex instanceof ModelException modelException
			&& modelException.isRetryable();

	private final List<ChatModel> fallbacks;

	private final Predicate<Throwable> fallbackIf;

	private final @Nullable ChatModel primary;

	private final MiddlewareMetrics metrics;

	private ModelFallbackMiddleware(Builder builder) {
		this.fallbacks = List.copyOf(builder.fallbacks);
		this.fallbackIf = builder.fallbackIf;
		this.primary = builder.primary;
		this.metrics = new MiddlewareMetrics(builder.meterRegistry);
	}

	/**
	 * Start building a middleware that falls back to the given models, in order.
	 * @param fallbacks the fallback models
	 * @return the builder
	 */
	public static Builder builder(ChatModel... fallbacks) {
		return new Builder(List.of(fallbacks));
	}

	public static Builder builder(List<? extends ChatModel> fallbacks) {
		return new Builder(fallbacks);
	}

	@Override
	public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		return next.call(request)
			.onErrorResume(this.fallbackIf, (ex) -> fallback(context, request, 0, primaryLabel(request, ex), ex));
	}

	private Mono<ChatResponse> fallback(AgentContext context, ChatRequest request, int index, String from,
			Throwable failure) {
		ChatModel model = this.fallbacks.get(index);
		String to = label(model, null);
		logger.debug("Agent '{}' falls back from {} to {} after {}", LogSafe.text(context.agentName()),
				LogSafe.text(from), LogSafe.text(to), failure.getClass().getSimpleName());
		this.metrics.increment(MiddlewareMetrics.MODEL_FALLBACKS, "agent", context.agentName(), "from", from, "to", to);
		return Mono.defer(() -> model.call(withoutModelOverride(request))).onErrorResume((ex) -> {
			if (ex != failure) {
				ex.addSuppressed(failure);
			}
			if (index + 1 < this.fallbacks.size() && this.fallbackIf.test(ex)) {
				return fallback(context, request, index + 1, to, ex);
			}
			return Mono.error(ex);
		});
	}

	private String primaryLabel(ChatRequest request, Throwable failure) {
		if (this.primary != null) {
			return label(this.primary, request.options().model());
		}
		String provider = (failure instanceof ModelException ex) ? ex.provider() : "unknown";
		String model = request.options().model();
		return provider + "/" + ((model != null) ? model : "primary");
	}

	private static String label(ChatModel model, @Nullable String requestModel) {
		return model.providerName() + "/" + ((requestModel != null) ? requestModel : model.modelName());
	}

	private static ChatRequest withoutModelOverride(ChatRequest request) {
		ChatOptions options = request.options();
		if (options.model() == null) {
			return request;
		}
		return new ChatRequest(request.messages(), request.tools(),
				new ChatOptions(null, options.temperature(), options.maxTokens()));
	}

	@Override
	public String toString() {
		return "ModelFallbackMiddleware" + this.fallbacks.stream().map((model) -> label(model, null)).toList();
	}

	/**
	 * Builds a {@link ModelFallbackMiddleware}.
	 */
	public static final class Builder {

		private final List<ChatModel> fallbacks;

		private Predicate<Throwable> fallbackIf = RETRYABLE;

		private @Nullable ChatModel primary;

		private @Nullable MeterRegistry meterRegistry;

		private Builder(List<? extends ChatModel> fallbacks) {
			Objects.requireNonNull(fallbacks, "'fallbacks' must not be null");
			if (fallbacks.isEmpty()) {
				throw new IllegalArgumentException("'fallbacks' must name at least one model");
			}
			this.fallbacks = new ArrayList<>(fallbacks.size());
			for (ChatModel model : fallbacks) {
				this.fallbacks.add(Objects.requireNonNull(model, "'fallbacks' must not contain null"));
			}
		}

		/**
		 * Also fall back on failures of these types, besides retryable model exceptions.
		 * @param types the exception types
		 * @return this builder
		 */
		@SafeVarargs
		public final Builder fallbackOn(Class<? extends Throwable>... types) {
			List<Class<? extends Throwable>> list = List.of(types);
			Predicate<Throwable> current = this.fallbackIf;
			this.fallbackIf = (ex) -> current.test(ex) || list.stream().anyMatch((type) -> type.isInstance(ex));
			return this;
		}

		/**
		 * Fall back exactly on the failures this predicate accepts, replacing the default
		 * ({@link #RETRYABLE}) and any {@link #fallbackOn} types.
		 * @param fallbackIf the predicate
		 * @return this builder
		 */
		public Builder fallbackIf(Predicate<Throwable> fallbackIf) {
			this.fallbackIf = Objects.requireNonNull(fallbackIf, "'fallbackIf' must not be null");
			return this;
		}

		/**
		 * Name the agent's own model, used only for the {@code from} tag of the first
		 * switch; without it the tag reads {@code <provider of the failure>/primary}.
		 * @param primary the agent's model
		 * @return this builder
		 */
		public Builder primary(@Nullable ChatModel primary) {
			this.primary = primary;
			return this;
		}

		public Builder meterRegistry(@Nullable MeterRegistry meterRegistry) {
			this.meterRegistry = meterRegistry;
			return this;
		}

		public ModelFallbackMiddleware build() {
			return new ModelFallbackMiddleware(this);
		}

	}

}
