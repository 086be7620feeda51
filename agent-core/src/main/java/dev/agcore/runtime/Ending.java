package dev.agcore.runtime;

import org.jspecify.annotations.Nullable;
import reactor.core.observability.DefaultSignalListener;
import reactor.core.publisher.Mono;

/**
 * Tells how a {@code Mono} ended, once: its value (null when it completed empty), its
 * error, or its cancellation, whichever came first. One {@code tap} operator where
 * {@code doOnSuccess}, {@code doOnError} and {@code doOnCancel} would be three: the turn
 * records how its parts end several times per turn, and those operators were a
 * noticeable share of what a turn allocates (docs/performance.md).
 */
final class Ending {

	private Ending() {
	}

	/**
	 * Watch a {@code Mono}; the listener is told before the signal goes downstream, as
	 * with {@code doOnSuccess}.
	 * @param mono what to watch
	 * @param listener told how it ended
	 * @return the watched {@code Mono}
	 */
	static <T> Mono<T> watch(Mono<T> mono, Listener<? super T> listener) {
		return mono.tap(() -> new Signals<T>(listener));
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

	private static final class Signals<T> extends DefaultSignalListener<T> {

		private final Listener<? super T> listener;

		/** Set by the first signal; terminal signals are serialised, a cancel may race them. */
		private boolean ended;

		Signals(Listener<? super T> listener) {
			this.listener = listener;
		}

		@Override
		public void doOnNext(T value) {
			if (!this.ended) {
				this.ended = true;
				this.listener.succeeded(value);
			}
		}

		@Override
		public void doOnComplete() {
			if (!this.ended) {
				this.ended = true;
				this.listener.succeeded(null);
			}
		}

		@Override
		public void doOnError(Throwable error) {
			if (!this.ended) {
				this.ended = true;
				this.listener.failed(error);
			}
		}

		@Override
		public void doOnCancel() {
			// a listener that must not be told twice when a cancel races the end keeps its
			// own once-only guard; this flag spares it the cancel that follows an ended Mono
			if (!this.ended) {
				this.ended = true;
				this.listener.cancelled();
			}
		}

	}

}
