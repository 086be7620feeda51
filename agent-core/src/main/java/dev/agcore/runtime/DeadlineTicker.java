package dev.agcore.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One daemon thread that expires the deadlines of running tools and turns: every
 * {@value #TICK_MILLIS} ms it calls {@link Deadline#expire()} on those that passed.
 * Registering a deadline only adds it to a set: unlike a scheduled task each, it never
 * wakes or locks another thread, which on a fast turn cost more than everything else
 * together and, with a thousand turns in flight, contended on the scheduler's queue.
 * Deadlines are therefore kept within a tick.
 */
final class DeadlineTicker {

	static final long TICK_MILLIS = 20;

	private static final DeadlineTicker INSTANCE = new DeadlineTicker();

	private final Set<Deadline> pending = ConcurrentHashMap.newKeySet();

	private volatile boolean started;

	private DeadlineTicker() {
	}

	/** Watch a deadline until it expires or is {@linkplain #remove removed}. */
	static void add(Deadline deadline) {
		INSTANCE.register(deadline);
	}

	/** Stop watching a deadline; nothing happens if it expired or was removed already. */
	static void remove(Deadline deadline) {
		INSTANCE.pending.remove(deadline);
	}

	/** How many deadlines are watched now; for tests. */
	static int watching() {
		return INSTANCE.pending.size();
	}

	private void register(Deadline deadline) {
		if (!this.started) {
			start();
		}
		this.pending.add(deadline);
	}

	private synchronized void start() {
		if (this.started) {
			return;
		}
		Thread thread = new Thread(this::tick, "agcore-deadlines");
		thread.setDaemon(true);
		thread.start();
		this.started = true;
	}

	private void tick() {
		while (true) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));
			if (this.pending.isEmpty()) {
				continue;
			}
			long now = System.nanoTime();
			for (Deadline deadline : this.pending) {
				if (now - deadline.deadlineNanos() >= 0 && this.pending.remove(deadline)) {
					try {
						deadline.expire();
					}
					catch (RuntimeException ex) {
						// a deadline's own failure must not stop the others from expiring
					}
				}
			}
		}
	}

	/** Something that must happen once a point in time has passed. */
	interface Deadline {

		/**
		 * Return when it expires.
		 * @return the {@link System#nanoTime()} of the deadline
		 */
		long deadlineNanos();

		/**
		 * Called once, on the ticker's thread, when the deadline has passed: must be quick
		 * and hand anything more to another thread.
		 */
		void expire();

	}

}
