package dev.agcore.runtime;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoOperator;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Tells how a {@code Mono} ended, once: its value (null when it completed empty), its
 * error, or its cancellation, whichever came first. One operator where
 * {@code doOnSuccess}, {@code doOnError} and {@code doOnCancel} would be three: the turn
 * records how its parts end several times per turn, and those operators were a
 * noticeable share of what a turn allocates (docs/performance.md). Not Reactor's
 * {@code tap}: with the context-propagation library on the class path (every Spring Boot
 * application with Micrometer), {@code tap} restores the thread locals of the Reactor
 * context around every signal, which with an observation registry opened an observation
 * scope per signal and cost more than the turn itself. These listeners only record.
 */
final class Ending {

	private Ending() {
	}

	/**
	 * Watch a {@code Mono}; the listener is told before the signal goes downstream, as
	 * with {@code doOnSuccess}. A listener that throws is dropped, never the signal.
	 * @param mono what to watch
	 * @param listener told how it ended
	 * @return the watched {@code Mono}
	 */
	static <T> Mono<T> watch(Mono<T> mono, Listener<? super T> listener) {
		return new Watched<>(mono, listener);
	}

	/** How a watched {@code Mono} ended; exactly one method is called. */
	interface Listener<T> {

		/**
		 * The {@code Mono} produced a value or completed empty.
		 * @param value the value, or null when it was empty
		 */
		void succeeded(@Nullable T value);

		/**
		 * The {@code Mono} failed.
		 * @param error the failure
		 */
		void failed(Throwable error);

		/** The subscriber cancelled before the {@code Mono} ended. */
		void cancelled();

	}

	private static final class Watched<T> extends MonoOperator<T, T> {

		private final Listener<? super T> listener;

		Watched(Mono<T> source, Listener<? super T> listener) {
			super(source);
			this.listener = listener;
		}

		@Override
		public void subscribe(CoreSubscriber<? super T> actual) {
			this.source.subscribe(new Watching<>(actual, this.listener));
		}

	}

	private static final class Watching<T> implements CoreSubscriber<T>, Subscription {

		@SuppressWarnings("rawtypes")
		private static final AtomicIntegerFieldUpdater<Watching> ENDED = AtomicIntegerFieldUpdater
			.newUpdater(Watching.class, "ended");

		private final CoreSubscriber<? super T> actual;

		private final Listener<? super T> listener;

		private @Nullable Subscription upstream;

		/** 1 once told: a cancel may race the end on another thread. */
		private volatile int ended;

		Watching(CoreSubscriber<? super T> actual, Listener<? super T> listener) {
			this.actual = actual;
			this.listener = listener;
		}

		@Override
		public Context currentContext() {
			return this.actual.currentContext();
		}

		@Override
		public void onSubscribe(Subscription subscription) {
			if (Operators.validate(this.upstream, subscription)) {
				this.upstream = subscription;
				this.actual.onSubscribe(this);
			}
		}

		@Override
		public void onNext(T value) {
			if (end()) {
				try {
					this.listener.succeeded(value);
				}
				catch (RuntimeException ex) {
					dropped(ex);
				}
			}
			this.actual.onNext(value);
		}

		@Override
		public void onError(Throwable error) {
			if (end()) {
				try {
					this.listener.failed(error);
				}
				catch (RuntimeException ex) {
					dropped(ex);
				}
			}
			this.actual.onError(error);
		}

		@Override
		public void onComplete() {
			if (end()) {
				try {
					this.listener.succeeded(null);
				}
				catch (RuntimeException ex) {
					dropped(ex);
				}
			}
			this.actual.onComplete();
		}

		@Override
		public void request(long n) {
			Subscription subscription = this.upstream;
			if (subscription != null) {
				subscription.request(n);
			}
		}

		@Override
		public void cancel() {
			if (end()) {
				try {
					this.listener.cancelled();
				}
				catch (RuntimeException ex) {
					dropped(ex);
				}
			}
			Subscription subscription = this.upstream;
			if (subscription != null) {
				subscription.cancel();
			}
		}

		private boolean end() {
			return this.ended == 0 && ENDED.compareAndSet(this, 0, 1);
		}

		// recording how a Mono ended must never change how it ends
		private void dropped(RuntimeException ex) {
			Operators.onErrorDropped(ex, this.actual.currentContext());
		}

	}

}
