package dev.agcore.provider.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * An idle timeout for a stream with one timer per stream rather than one per element, as
 * {@code Flux.timeout(Publisher, Function)} schedules: an element only records when it
 * came, and the timer, when it fires, either finds the stream quiet for too long or waits
 * for the rest of the limit.
 */
public final class IdleTimeout {

	private IdleTimeout() {
	}

	/**
	 * Watch a stream for silence, from the subscription on.
	 * @param <T> the type of element
	 * @param source the stream
	 * @param limit how long the stream may stay quiet; asked again after every element,
	 * so it may shorten as the stream goes on (once the answer is complete, say)
	 * @param onIdle what follows when the stream was quiet too long, after the source is
	 * cancelled
	 * @return the watched stream
	 */
	public static <T> Flux<T> watch(Flux<T> source, Supplier<Duration> limit, Supplier<Flux<T>> onIdle) {
		return watch(source, limit, onIdle, Schedulers::parallel);
	}

	static <T> Flux<T> watch(Flux<T> source, Supplier<Duration> limit, Supplier<Flux<T>> onIdle,
			Supplier<Scheduler> timers) {
		return Flux.defer(() -> {
			Watch watch = new Watch(limit, timers.get());
			return source.doOnNext(watch::touch)
				.takeUntilOther(watch.expiry())
				.concatWith(Flux.defer(() -> watch.expired ? onIdle.get() : Flux.empty()));
		});
	}

	private static final class Watch {

		private final Supplier<Duration> limit;

		private final Scheduler scheduler;

		private final Disposable.Swap timer = Disposables.swap();

		private volatile long lastNanos;

		// the limit the timer was last set for, and its generation: a timer set for an
		// older, longer limit finds itself replaced and does nothing
		private volatile long limitNanos;

		private volatile int generation;

		private volatile @Nullable MonoSink<Boolean> sink;

		volatile boolean expired;

		Watch(Supplier<Duration> limit, Scheduler scheduler) {
			this.limit = limit;
			this.scheduler = scheduler;
		}

		Mono<Boolean> expiry() {
			return Mono.create((sink) -> {
				this.sink = sink;
				sink.onDispose(this.timer);
				this.lastNanos = now();
				long nanos = this.limit.get().toNanos();
				this.limitNanos = nanos;
				schedule(nanos, this.generation);
			});
		}

		void touch(Object element) {
			this.lastNanos = now();
			long nanos = this.limit.get().toNanos();
			if (nanos < this.limitNanos) {
				this.limitNanos = nanos;
				int generation = ++this.generation;
				// the timer set for the longer limit is cancelled, not left to fire: until
				// then it would hold the whole stream
				this.timer.update(newTimer(nanos, generation));
			}
		}

		private void schedule(long delayNanos, int generation) {
			// replaced, not cancelled: the timer replaced is the one running now, or none
			this.timer.replace(newTimer(delayNanos, generation));
		}

		private Disposable newTimer(long delayNanos, int generation) {
			return this.scheduler.schedule(() -> check(generation), delayNanos, TimeUnit.NANOSECONDS);
		}

		private void check(int generation) {
			MonoSink<Boolean> sink = this.sink;
			if (generation != this.generation || sink == null || this.timer.isDisposed()) {
				return;
			}
			long left = this.limitNanos - (now() - this.lastNanos);
			if (left > 0) {
				schedule(left, generation);
				return;
			}
			this.expired = true;
			sink.success(Boolean.TRUE);
		}

		private long now() {
			return this.scheduler.now(TimeUnit.NANOSECONDS);
		}

	}

}
