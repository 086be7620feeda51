package dev.agcore.chain;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.ChainOutcome;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A step whose runs are recorded under its name: each invocation and each stream, from
 * subscription to completion, failure or cancellation.
 */
final class ObservedRunnable<I, O> implements Runnable<I, O> {

	private final Runnable<I, O> delegate;

	private final AgentMetrics metrics;

	private final String name;

	ObservedRunnable(Runnable<I, O> delegate, AgentMetrics metrics) {
		this.delegate = delegate;
		this.metrics = metrics;
		// read once: the name is a tag, and must not change between runs
		this.name = delegate.name();
	}

	@Override
	public Mono<O> invoke(I input) {
		return Mono.defer(() -> {
			Run run = new Run();
			return this.delegate.invoke(input)
				.doOnSuccess((output) -> run.end(ChainOutcome.SUCCESS))
				.doOnError((ex) -> run.end(ChainOutcome.ERROR))
				.doOnCancel(() -> run.end(ChainOutcome.CANCELLED));
		});
	}

	@Override
	public Flux<O> stream(I input) {
		return Flux.defer(() -> {
			Run run = new Run();
			return this.delegate.stream(input)
				.doOnComplete(() -> run.end(ChainOutcome.SUCCESS))
				.doOnError((ex) -> run.end(ChainOutcome.ERROR))
				.doOnCancel(() -> run.end(ChainOutcome.CANCELLED));
		});
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String toString() {
		return this.name;
	}

	/** One run; recorded once, whichever of its end signals comes first. */
	private final class Run {

		private final long start = System.nanoTime();

		private final AtomicBoolean ended = new AtomicBoolean();

		void end(ChainOutcome outcome) {
			if (this.ended.compareAndSet(false, true)) {
				ObservedRunnable.this.metrics.chainCall(ObservedRunnable.this.name, outcome,
						System.nanoTime() - this.start);
			}
		}

	}

}
