package dev.agcore.model;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A model as configured under a name: a delegate, the options every call carries (the
 * request's own options override them), and what the configuration knows about the
 * model — its price and context window. With a price, the cost of each call is told to
 * the {@link ModelCostListener} in the Reactor context (the runtime's, in a turn), which
 * records it under the configured {@link #name() name}.
 */
public final class ConfiguredChatModel implements ChatModel {

	private final String name;

	private final ChatModel delegate;

	private final ChatOptions defaultOptions;

	private final @Nullable ModelPrice price;

	private final @Nullable Integer contextWindow;

	/**
	 * Create a configured model.
	 * @param name the configured name, used in the {@code agent.cost} metric
	 * @param delegate the model that is called
	 * @param defaultOptions options of every call; {@link ChatOptions#DEFAULTS} for none
	 * @param price the price, null when unknown
	 * @param contextWindow the context window in tokens, null when unknown
	 */
	public ConfiguredChatModel(String name, ChatModel delegate, ChatOptions defaultOptions, @Nullable ModelPrice price,
			@Nullable Integer contextWindow) {
		this.name = Objects.requireNonNull(name, "'name' must not be null");
		this.delegate = Objects.requireNonNull(delegate, "'delegate' must not be null");
		this.defaultOptions = Objects.requireNonNull(defaultOptions, "'defaultOptions' must not be null");
		if (contextWindow != null && contextWindow < 1) {
			throw new IllegalArgumentException("'contextWindow' must be positive (was " + contextWindow + ")");
		}
		this.price = price;
		this.contextWindow = contextWindow;
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		if (this.price == null) {
			return this.delegate.call(withDefaults(request));
		}
		return Mono.deferContextual((context) -> {
			Mono<ChatResponse> call = this.delegate.call(withDefaults(request));
			return context.<ModelCostListener>getOrEmpty(ModelCostListener.CONTEXT_KEY)
				.map((listener) -> call.doOnNext((response) -> report(listener, response.usage())))
				.orElse(call);
		});
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		if (this.price == null) {
			return this.delegate.stream(withDefaults(request));
		}
		return Flux.deferContextual((context) -> {
			Flux<ChatChunk> chunks = this.delegate.stream(withDefaults(request));
			return context.<ModelCostListener>getOrEmpty(ModelCostListener.CONTEXT_KEY).map((listener) -> {
				// the last usage a chunk reports is the call's, as ChatResponseAccumulator takes it
				Usage[] usage = { Usage.EMPTY };
				return chunks.doOnNext((chunk) -> {
					if (chunk.usage() != null) {
						usage[0] = chunk.usage();
					}
				}).doOnComplete(() -> report(listener, usage[0]));
			}).orElse(chunks);
		});
	}

	private void report(ModelCostListener listener, Usage usage) {
		if (this.price != null && !usage.isEmpty()) {
			listener.onCost(this, usage, this.price.cost(usage));
		}
	}

	private ChatRequest withDefaults(ChatRequest request) {
		if (this.defaultOptions.equals(ChatOptions.DEFAULTS)) {
			return request;
		}
		return new ChatRequest(request.messages(), request.tools(),
				request.options().withDefaults(this.defaultOptions));
	}

	/**
	 * Return the configured name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the model that is called.
	 * @return the delegate
	 */
	public ChatModel delegate() {
		return this.delegate;
	}

	/**
	 * Return the options every call carries.
	 * @return the options
	 */
	public ChatOptions defaultOptions() {
		return this.defaultOptions;
	}

	/**
	 * Return the price.
	 * @return the price, null when none is configured
	 */
	public @Nullable ModelPrice price() {
		return this.price;
	}

	/**
	 * Return the context window.
	 * @return the size in tokens, null when none is configured
	 */
	public @Nullable Integer contextWindow() {
		return this.contextWindow;
	}

	/**
	 * Return the cost of the given usage at this model's price.
	 * @param usage the tokens consumed
	 * @return the cost, null when no price is configured
	 */
	public @Nullable BigDecimal cost(Usage usage) {
		return (this.price != null) ? this.price.cost(usage) : null;
	}

	@Override
	public String providerName() {
		return this.delegate.providerName();
	}

	@Override
	public String modelName() {
		String model = this.defaultOptions.model();
		return (model != null) ? model : this.delegate.modelName();
	}

	@Override
	public Set<ModelCapability> capabilities() {
		return this.delegate.capabilities();
	}

	@Override
	public Mono<Void> checkHealth() {
		return this.delegate.checkHealth();
	}

	@Override
	public String toString() {
		return "ConfiguredChatModel[" + this.name + " -> " + this.delegate + "]";
	}

}
