package dev.agcore.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Interrupts tools that overrun their timeout on the tool scheduler's threads.
 * <p>
 * One daemon thread checks the running guards every {@value #TICK_MILLIS} ms. Guarding a
 * call only adds it to a set: unlike a scheduled task per call, it never wakes another
 * thread, which on a fast turn cost more than everything else together. Timeouts are
 * therefore enforced within a tick of their deadline.
 */
final class ToolWatchdog {

	static final long TICK_MILLIS = 20;

	private static final ToolWatchdog INSTANCE = new ToolWatchdog();

	private final Set<Guard> running = ConcurrentHashMap.newKeySet();

	private volatile boolean started;

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
		return INSTANCE.register(timeoutNanos, onTimeout);
	}

	private Guard register(long timeoutNanos, BooleanSupplier onTimeout) {
		if (!this.started) {
			start();
		}
		Guard guard = new Guard(this.running, Thread.currentThread(), System.nanoTime() + timeoutNanos, onTimeout);
		this.running.add(guard);
		return guard;
	}

	private synchronized void start() {
		if (this.started) {
			return;
		}
		Thread thread = new Thread(this::watch, "agcore-tool-watchdog");
		thread.setDaemon(true);
		thread.start();
		this.started = true;
	}

	private void watch() {
		while (true) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));
			if (this.running.isEmpty()) {
				continue;
			}
			long now = System.nanoTime();
			for (Guard guard : this.running) {
				if (now - guard.deadline >= 0) {
					guard.fire();
				}
			}
		}
	}

	/**
	 * One guarded call. The handshake on {@code state} makes sure an interrupt never leaks
	 * to the thread after the tool has returned.
	 */
	static final class Guard {

		private static final int RUNNING = 0;

		private static final int INTERRUPTING = 1;

		private static final int FIRED = 2;

		private static final int DONE = 3;

		private final Set<Guard> running;

		private final Thread thread;

		private final long deadline;

		private final AtomicInteger state = new AtomicInteger(RUNNING);

		private final BooleanSupplier onTimeout;

		private Guard(Set<Guard> running, Thread thread, long deadline, BooleanSupplier onTimeout) {
			this.running = running;
			this.onTimeout = onTimeout;
			this.thread = thread;
			this.deadline = deadline;
		}

		private void fire() {
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
			this.running.remove(this);
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
