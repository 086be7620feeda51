package dev.agcore.chain;

import java.util.Objects;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Two steps, the second taking the first one's output. Streaming invokes the first and
 * streams the second, so a pipe ending in a model step streams the model's text.
 */
final class Pipe<I, M, O> implements Runnable<I, O> {

	private final Runnable<I, M> first;

	private final Runnable<? super M, O> second;

	private final String name;

	Pipe(Runnable<I, M> first, Runnable<? super M, O> second) {
		this.first = first;
		this.second = Objects.requireNonNull(second, "'next' must not be null");
		this.name = first.name() + " | " + second.name();
	}

	@Override
	public Mono<O> invoke(I input) {
		return Mono.defer(() -> Step.required(this.first.invoke(input), this.first.name()))
			.flatMap((middle) -> Step.required(this.second.invoke(middle), this.second.name()));
	}

	@Override
	public Flux<O> stream(I input) {
		return Mono.defer(() -> Step.required(this.first.invoke(input), this.first.name()))
			.flatMapMany(this.second::stream);
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
