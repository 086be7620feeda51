package dev.agcore.chain;

import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A named step made of functions: how it is invoked and, for a step that produces its
 * output in pieces, how it is streamed. The adapters of {@link Chains} are all steps.
 */
final class Step<I, O> implements Runnable<I, O> {

	private final String name;

	private final Function<I, Mono<O>> invoker;

	private final @Nullable Function<I, Flux<O>> streamer;

	Step(String name, Function<I, Mono<O>> invoker, @Nullable Function<I, Flux<O>> streamer) {
		this.name = name;
		this.invoker = invoker;
		this.streamer = streamer;
	}

	Step(String name, Function<I, Mono<O>> invoker) {
		this(name, invoker, null);
	}

	/**
	 * The output of a step, failing with a {@link ChainException} naming it when the step
	 * completes empty (a function that returned {@code null} included).
	 */
	static <O> Mono<O> required(Mono<O> output, String step) {
		return output.switchIfEmpty(Mono.error(() -> ChainException.empty(step)));
	}

	@Override
	public Mono<O> invoke(I input) {
		Objects.requireNonNull(input, "'input' must not be null");
		return Mono.defer(() -> required(published(this.invoker.apply(input)), this.name));
	}

	@Override
	public Flux<O> stream(I input) {
		Function<I, Flux<O>> streamer = this.streamer;
		if (streamer == null) {
			return invoke(input).flux();
		}
		Objects.requireNonNull(input, "'input' must not be null");
		return Flux.defer(() -> published(streamer.apply(input)));
	}

	private <P> P published(@Nullable P publisher) {
		if (publisher == null) {
			throw new ChainException("Chain step '" + this.name + "' returned null instead of a publisher");
		}
		return publisher;
	}

	@Override
	public Runnable<I, O> named(String name) {
		// renamed in place, so its own errors name it as the caller does
		NamedRunnable.checkName(name);
		return new Step<>(name, this.invoker, this.streamer);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
