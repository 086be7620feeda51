package dev.agcore.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Interrupts tools that overrun their timeout on the tool scheduler's threads; the
 * shared {@link DeadlineTicker} tells each guard when its deadline has passed, so
 * timeouts are enforced within a tick of their deadline.
 */
final class ToolWatchdog {

	private ToolWatchdog() {
	}

	/**
	 * Start guarding the current thread, the worker the tool runs on.
	 * @param timeoutNanos how long it may run
	 * @param onTimeout called when the deadline passes; the thread is interrupted only if
	 * it returns true (false: the call ended meanwhile)
	 * @return the guard; call {@link Guard#finish()} when the tool returns
	 */
	static Guard guard(long timeoutNanos, BooleanSupplier onTimeout) {
		Guard guard = new Guard(Thread.currentThread(), System.nanoTime() + timeoutNanos, onTimeout);
		DeadlineTicker.add(guard);
		return guard;
	}

	/**
	 * One guarded call. The handshake on {@code state} makes sure an interrupt never leaks
	 * to the thread after the tool has returned.
	 */
	static final class Guard implements DeadlineTicker.Deadline {

		private static final int RUNNING = 0;

		private static final int INTERRUPTING = 1;

		private static final int FIRED = 2;

		private static final int DONE = 3;

		private final Thread thread;

		private final long deadline;

		private final AtomicInteger state = new AtomicInteger(RUNNING);

		private final BooleanSupplier onTimeout;

		private Guard(Thread thread, long deadline, BooleanSupplier onTimeout) {
			this.onTimeout = onTimeout;
			this.thread = thread;
			this.deadline = deadline;
		}

		@Override
		public long deadlineNanos() {
			return this.deadline;
		}

		@Override
		public void expire() {
			if (this.state.compareAndSet(RUNNING, INTERRUPTING)) {
				if (this.onTimeout.getAsBoolean()) {
					this.thread.interrupt();
					this.state.set(FIRED);
				}
				else {
					this.state.set(DONE);
				}
			}
		}

		/**
		 * Stop guarding.
		 * @return true if the tool finished in time; false if it was interrupted, in which
		 * case the pending interrupt is cleared
		 */
		boolean finish() {
			DeadlineTicker.remove(this);
			if (this.state.compareAndSet(RUNNING, DONE)) {
				return true;
			}
			while (this.state.get() == INTERRUPTING) {
				Thread.onSpinWait();
			}
			if (this.state.get() == DONE) {
				return true;
			}
			Thread.interrupted();
			return false;
		}

	}

}
