package dev.agcore.chain;

import java.util.List;
import java.util.Objects;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One step of a chain, or a whole chain: something that turns an input into an output,
 * asynchronously. Steps are composed with {@link #pipe}, the seeds' {@code |}:
 * <pre class="code">
 * Runnable&lt;Map&lt;String, ?&gt;, Weather&gt; forecast = Chains.prompt(template)
 * 	.pipe(Chains.model(chatModel))
 * 	.pipe(Chains.parse(Weather.class));
 * </pre>
 * This is the seeds' {@code Runnable} ({@code #[chain]} functions become runnables). A
 * file that also needs {@link java.lang.Runnable} writes that one with its package.
 * <p>
 * {@link #invoke} emits exactly one value or fails: a step that completes empty fails the
 * chain with a {@link ChainException} naming it, and any other error propagates as the
 * step raised it. Implementations are thread-safe and stateless between invocations;
 * {@link Chains} makes them from templates, models, parsers, retrievers, agents and
 * functions. The one abstract method makes a lambda a runnable; such a lambda must not
 * block, as it runs on the caller's thread (use {@link Chains#lambda} for code that may).
 *
 * @param <I> the input type
 * @param <O> the output type
 * @since 0.1.0
 */
@FunctionalInterface
public interface Runnable<I, O> {

	/** How many inputs {@link #batch(List)} runs at once. */
	int DEFAULT_MAX_CONCURRENCY = 4;

	/**
	 * Run the step.
	 * @param input the input
	 * @return the output: exactly one value, or an error
	 */
	Mono<O> invoke(I input);

	/**
	 * Run the step, emitting its output as it is produced. A step that produces its output
	 * in pieces emits the pieces (a model step emits text deltas, whose concatenation is
	 * what {@link #invoke} gives); any other step emits the one value of {@link #invoke}.
	 * A {@link #pipe pipe} invokes its earlier steps and streams its last one.
	 * @param input the input
	 * @return the output, in pieces or whole
	 */
	default Flux<O> stream(I input) {
		return invoke(input).flux();
	}

	/**
	 * Run the step for each input, at most {@code maxConcurrency} at a time. The first
	 * failure fails the batch and cancels the runs still going.
	 * @param inputs the inputs
	 * @param maxConcurrency how many inputs run at once, at least 1
	 * @return the outputs, in the order of the inputs
	 */
	default Mono<List<O>> batch(List<? extends I> inputs, int maxConcurrency) {
		Objects.requireNonNull(inputs, "'inputs' must not be null");
		if (maxConcurrency < 1) {
			throw new IllegalArgumentException("'maxConcurrency' must be at least 1, was " + maxConcurrency);
		}
		// flatMapSequential subscribes to at most maxConcurrency runs and keeps the input order
		return Flux.fromIterable(inputs)
			.flatMapSequential((input) -> Step.required(invoke(input), name()), maxConcurrency, 1)
			.collectList();
	}

	/**
	 * Run the step for each input, {@value #DEFAULT_MAX_CONCURRENCY} at a time; see
	 * {@link #batch(List, int)}.
	 * @param inputs the inputs
	 * @return the outputs, in the order of the inputs
	 */
	default Mono<List<O>> batch(List<? extends I> inputs) {
		return batch(inputs, DEFAULT_MAX_CONCURRENCY);
	}

	/**
	 * Compose this step with the next one, which takes this one's output: the seeds'
	 * {@code this | next}. The composed step {@link #stream streams} by invoking this step
	 * and streaming the next one.
	 * @param <R> the output type of the next step
	 * @param next the next step
	 * @return the composed step, named {@code "<this> | <next>"}
	 */
	default <R> Runnable<I, R> pipe(Runnable<? super O, R> next) {
		return new Pipe<>(this, next);
	}

	/**
	 * Compose this step with the next one; the same as {@link #pipe}.
	 * @param <R> the output type of the next step
	 * @param next the next step
	 * @return the composed step
	 */
	default <R> Runnable<I, R> andThen(Runnable<? super O, R> next) {
		return pipe(next);
	}

	/**
	 * Return this step under another name.
	 * @param name the name, used in metrics and error messages
	 * @return the same step, named
	 */
	default Runnable<I, O> named(String name) {
		return NamedRunnable.of(this, name);
	}

	/**
	 * Return the name of this step, for error messages and, once registered in a
	 * {@link ChainRegistry}, metrics. Names are configuration: never model output.
	 * @return the name: the class's simple name by default, {@code runnable} for a lambda
	 */
	default String name() {
		Class<?> type = getClass();
		String simpleName = type.getSimpleName();
		return (type.isSynthetic() || simpleName.isEmpty() || simpleName.contains("$$Lambda")) ? "runnable"
				: simpleName;
	}

}
