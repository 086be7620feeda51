package dev.agcore.autoconfigure.memory.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Purges the JDBC stores on a schedule: expired sessions and values, and whatever exceeds
 * the capacities. One daemon thread, started with the application and stopped on
 * shutdown. Every instance purges; the deletes are idempotent, so that is harmless. A
 * purge that fails (the database is down) is logged and tried again at the next interval.
 *
 * @since 0.1.0
 */
public final class JdbcMemoryPurger implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(JdbcMemoryPurger.class);

	private final Duration interval;

	private final List<Purge> purges;

	private @Nullable ScheduledExecutorService executor;

	JdbcMemoryPurger(Duration interval, List<Purge> purges) {
		this.interval = interval;
		this.purges = List.copyOf(purges);
	}

	/**
	 * Run every purge now.
	 * @return how many sessions and values were removed
	 */
	public long purgeNow() {
		long removed = 0;
		for (Purge purge : this.purges) {
			try {
				long count = purge.action().getAsLong();
				if (count > 0) {
					logger.debug("Purged {} {}", count, purge.what());
				}
				removed += count;
			}
			catch (MemoryUnavailableException ex) {
				logger.warn("Could not purge expired {}: {}", purge.what(), LogSafe.text(ex.getMessage()));
			}
			catch (RuntimeException ex) {
				logger.warn("Could not purge expired {}", purge.what(), LogSafe.throwable(ex));
			}
		}
		return removed;
	}

	@Override
	public synchronized void start() {
		if (this.executor != null || this.purges.isEmpty()) {
			return;
		}
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "agent-memory-purge");
			thread.setDaemon(true);
			return thread;
		});
		long millis = this.interval.toMillis();
		scheduler.scheduleWithFixedDelay(this::purgeNow, millis, millis, TimeUnit.MILLISECONDS);
		this.executor = scheduler;
	}

	@Override
	public synchronized void stop() {
		if (this.executor != null) {
			this.executor.shutdownNow();
			this.executor = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.executor != null;
	}

	/**
	 * One store's purge.
	 *
	 * @param what what it removes, for the log
	 * @param action the purge, returning how many it removed
	 */
	public record Purge(String what, LongSupplier action) {

	}

}
