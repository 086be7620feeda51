package dev.agcore.chain;

import java.util.Objects;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A step under another name; everything else is the step's own.
 */
final class NamedRunnable<I, O> implements Runnable<I, O> {

	private final Runnable<I, O> delegate;

	private final String name;

	private NamedRunnable(Runnable<I, O> delegate, String name) {
		this.delegate = delegate;
		this.name = name;
	}

	static <I, O> Runnable<I, O> of(Runnable<I, O> runnable, String name) {
		checkName(name);
		Runnable<I, O> unwrapped = (runnable instanceof NamedRunnable<I, O> named) ? named.delegate : runnable;
		return new NamedRunnable<>(unwrapped, name);
	}

	static void checkName(String name) {
		Objects.requireNonNull(name, "'name' must not be null");
		if (name.isBlank()) {
			throw new IllegalArgumentException("A chain's name must not be blank");
		}
	}

	@Override
	public Mono<O> invoke(I input) {
		return this.delegate.invoke(input);
	}

	@Override
	public Flux<O> stream(I input) {
		return this.delegate.stream(input);
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
