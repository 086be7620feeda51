package dev.agcore.audit.outbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditGate;
import dev.agcore.audit.AuditListener;
import dev.agcore.audit.AuditSink;
import dev.agcore.audit.AuditSinkException;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes an {@link AuditSink} durable: each event is appended to a journal on the local
 * disk and forced there before the turn goes on, and one thread of the outbox's own hands
 * the journaled events to the sink, oldest first, retrying with a growing pause while the
 * sink cannot be reached. What the sink stored is noted in the journal, so that events
 * journaled before a crash are sent after the restart; an event may then be sent twice,
 * and the sink keeps it once (by its id).
 * <p>
 * The journal is bounded: once it holds {@code maxBytes} of events the sink has not
 * stored yet, the outbox, as an {@link AuditGate}, refuses new tool calls (an action the
 * trail could not record does not happen) until the sink catches up. Events still
 * arriving (of calls already running, of refusals) are journaled past the bound: no event
 * is dropped while the disk takes it. An event the disk refuses is logged at ERROR and
 * counted, and the gate stays closed until an append succeeds again.
 * <p>
 * Appends force the disk on the turn's thread, which is why agents run tools off event
 * loops; a budget or access refusal may be journaled on one, a write of a few hundred
 * bytes.
 *
 * @since 0.1.0
 */
public final class AuditOutbox implements AuditListener, AuditGate, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(AuditOutbox.class);

	private final AuditJournal journal;

	private final AuditSink sink;

	private final long maxBytes;

	private final int batchSize;

	private final Duration minBackoff;

	private final Duration maxBackoff;

	private final Duration closeTimeout;

	private final Thread drainer;

	private final Object signal = new Object();

	private final AtomicLong unjournaled = new AtomicLong();

	private final AtomicLong rejected = new AtomicLong();

	private volatile boolean running = true;

	private volatile boolean appendFailing;

	private volatile boolean full;

	private AuditOutbox(Builder builder) throws IOException {
		this.sink = builder.sink;
		this.maxBytes = builder.maxBytes;
		this.batchSize = builder.batchSize;
		this.minBackoff = builder.minBackoff;
		this.maxBackoff = builder.maxBackoff;
		this.closeTimeout = builder.closeTimeout;
		this.journal = AuditJournal.open(builder.directory, Math.max(4096, Math.min(builder.maxBytes / 4, 8 << 20)));
		this.drainer = new Thread(this::drain, "agent-audit-outbox");
		this.drainer.setDaemon(true);
		this.drainer.start();
	}

	/**
	 * Start building an outbox.
	 * @param directory the journal's directory, of this process alone (created when
	 * missing); on storage that outlives the process
	 * @param sink where the events are stored for good
	 * @return a new builder
	 */
	public static Builder builder(Path directory, AuditSink sink) {
		return new Builder(directory, sink);
	}

	/**
	 * Journal an event, forced to the disk, for the sink to store.
	 * @param event the event
	 */
	@Override
	public void onAuditEvent(AuditEvent event) {
		try {
			this.journal.append(event);
			if (this.appendFailing) {
				this.appendFailing = false;
				logger.info("The audit outbox in {} takes events again", this.journal.directory().toAbsolutePath());
			}
		}
		catch (IOException ex) {
			this.unjournaled.incrementAndGet();
			this.appendFailing = true;
			// its content stays out of the log: it may hold what the arguments held
			logger.error("Audit event {} ({} of agent '{}') could not be journaled in {}: {}", event.id(),
					event.kind(), LogSafe.text(event.agent()), this.journal.directory().toAbsolutePath(),
					LogSafe.text(ex.toString()));
			return;
		}
		synchronized (this.signal) {
			this.signal.notifyAll();
		}
	}

	@Override
	public @Nullable String refusal() {
		if (this.appendFailing) {
			return "the audit trail cannot record it now";
		}
		boolean over = this.journal.pendingBytes() >= this.maxBytes;
		if (over != this.full) {
			this.full = over;
			if (over) {
				logger.warn("The audit outbox in {} holds {} bytes its sink has not stored (its bound is {}): tool "
						+ "calls are refused until the sink catches up", this.journal.directory().toAbsolutePath(),
						this.journal.pendingBytes(), this.maxBytes);
			}
			else {
				logger.info("The audit outbox in {} is below its bound again: tool calls run",
						this.journal.directory().toAbsolutePath());
			}
		}
		return over ? "the audit trail cannot record it now" : null;
	}

	/**
	 * Return the bytes of events journaled and not yet stored by the sink.
	 * @return the bytes
	 */
	public long pendingBytes() {
		return this.journal.pendingBytes();
	}

	/**
	 * Return how many events the disk refused, since this outbox was opened: each was
	 * logged at ERROR with its id.
	 * @return the count
	 */
	public long unjournaledEvents() {
		return this.unjournaled.get();
	}

	/**
	 * Return how many events the sink refused (not an outage: the event itself), since this
	 * outbox was opened: each was logged at ERROR and kept in {@code rejected.log} in the
	 * directory.
	 * @return the count
	 */
	public long rejectedEvents() {
		return this.rejected.get();
	}

	/**
	 * Wait until the sink stored every event journaled so far.
	 * @param timeout how long to wait at most
	 * @return whether it did
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean flush(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (this.journal.pendingBytes() > 0) {
			if (System.nanoTime() >= deadline || !this.running) {
				return false;
			}
			synchronized (this.signal) {
				this.signal.notifyAll();
			}
			Thread.sleep(10);
		}
		return true;
	}

	/**
	 * Wait for the sink to store what is journaled, up to the close timeout, then stop
	 * sending and close the journal. Events not stored by then stay in the journal and are
	 * sent by the next outbox of the directory.
	 */
	@Override
	public void close() {
		if (!this.closeTimeout.isZero()) {
			try {
				if (!flush(this.closeTimeout)) {
					logger.warn("The audit outbox in {} closes with {} bytes of events not yet stored; they are sent "
							+ "after the next start", this.journal.directory().toAbsolutePath(), pendingBytes());
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.running = false;
		this.drainer.interrupt();
		try {
			this.drainer.join(Duration.ofSeconds(10).toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try {
			this.journal.close();
		}
		catch (IOException ex) {
			logger.warn("The audit outbox in {} did not close cleanly: {}", this.journal.directory(),
					LogSafe.text(ex.toString()));
		}
	}

	private void drain() {
		Backoff backoff = new Backoff(this.minBackoff, this.maxBackoff);
		List<AuditJournal.Entry> batch = List.of();
		while (this.running) {
			try {
				if (batch.isEmpty()) {
					batch = this.journal.read(this.batchSize);
				}
				if (batch.isEmpty()) {
					synchronized (this.signal) {
						if (this.journal.pendingBytes() == 0 || !this.running) {
							this.signal.wait(1000);
						}
					}
					continue;
				}
				// the same batch again after a failure, not re-read: an outage only delays it
				store(batch);
				batch = List.of();
				backoff.succeeded(this.journal.directory());
			}
			catch (AuditSinkException ex) {
				backoff.failed(ex, this.journal.directory());
				pause(backoff.next());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (IOException | RuntimeException ex) {
				logger.error("The audit outbox in {} failed to send its events; retrying", this.journal.directory(),
						ex);
				pause(backoff.next());
			}
		}
	}

	private void store(List<AuditJournal.Entry> batch) throws IOException {
		List<AuditEvent> events = events(batch);
		try {
			if (!events.isEmpty()) {
				this.sink.store(events);
			}
			this.journal.stored(batch.get(batch.size() - 1).end());
		}
		catch (AuditSinkException ex) {
			if (ex.isOutage()) {
				throw ex;
			}
			// the sink refused the batch: one event at a time, so that one bad event cannot hold back the rest
			for (AuditJournal.Entry entry : batch) {
				storeAlone(entry);
			}
		}
	}

	private void storeAlone(AuditJournal.Entry entry) throws IOException {
		AuditEvent event = entry.event();
		if (event != null) {
			try {
				this.sink.store(List.of(event));
			}
			catch (AuditSinkException ex) {
				if (ex.isOutage()) {
					throw ex;
				}
				this.rejected.incrementAndGet();
				logger.error("The audit sink refused event {} ({} of agent '{}'); it is kept in rejected.log in {}: {}",
						event.id(), event.kind(), LogSafe.text(event.agent()), this.journal.directory().toAbsolutePath(),
						LogSafe.text(ex.getMessage()));
				this.journal.reject(event);
			}
		}
		this.journal.stored(entry.end());
	}

	private static List<AuditEvent> events(List<AuditJournal.Entry> batch) {
		return batch.stream().map(AuditJournal.Entry::event).filter(Objects::nonNull).toList();
	}

	private void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	/** A pause that doubles with each failure in a row, up to a bound, with some jitter. */
	private static final class Backoff {

		private final Duration min;

		private final Duration max;

		private Duration current;

		private boolean failing;

		Backoff(Duration min, Duration max) {
			this.min = min;
			this.max = max;
			this.current = min;
		}

		Duration next() {
			Duration pause = this.current;
			Duration doubled = this.current.multipliedBy(2);
			this.current = (doubled.compareTo(this.max) > 0) ? this.max : doubled;
			long jitter = ThreadLocalRandom.current().nextLong(pause.toMillis() / 5 + 1);
			return pause.plusMillis(jitter);
		}

		void failed(AuditSinkException ex, Path directory) {
			if (!this.failing) {
				this.failing = true;
				logger.warn("The audit sink cannot store events ({}); the outbox in {} keeps them and retries",
						LogSafe.text(ex.getMessage()), directory.toAbsolutePath());
			}
		}

		void succeeded(Path directory) {
			if (this.failing) {
				this.failing = false;
				logger.info("The audit sink stores events again; the outbox in {} catches up",
						directory.toAbsolutePath());
			}
			this.current = this.min;
		}

	}

	/**
	 * Builds an {@link AuditOutbox}.
	 */
	public static final class Builder {

		private final Path directory;

		private final AuditSink sink;

		private long maxBytes = 64L << 20;

		private int batchSize = 100;

		private Duration minBackoff = Duration.ofMillis(200);

		private Duration maxBackoff = Duration.ofSeconds(30);

		private Duration closeTimeout = Duration.ZERO;

		private Builder(Path directory, AuditSink sink) {
			this.directory = Objects.requireNonNull(directory, "'directory' must not be null");
			this.sink = Objects.requireNonNull(sink, "'sink' must not be null");
		}

		/**
		 * Set how many bytes of events not yet stored the journal holds before tool calls
		 * are refused.
		 * @param maxBytes the bound, positive; 64 MiB by default
		 * @return this builder
		 */
		public Builder maxBytes(long maxBytes) {
			if (maxBytes < 1) {
				throw new IllegalArgumentException("'maxBytes' must be positive, was " + maxBytes);
			}
			this.maxBytes = maxBytes;
			return this;
		}

		/**
		 * Set how many events the sink is handed at once.
		 * @param batchSize the most events of one write, positive; 100 by default
		 * @return this builder
		 */
		public Builder batchSize(int batchSize) {
			if (batchSize < 1) {
				throw new IllegalArgumentException("'batchSize' must be positive, was " + batchSize);
			}
			this.batchSize = batchSize;
			return this;
		}

		/**
		 * Set the pauses between attempts while the sink fails: the first, doubled after
		 * each failure up to the last.
		 * @param min the first pause; 200 ms by default
		 * @param max the longest pause; 30 s by default
		 * @return this builder
		 */
		public Builder backoff(Duration min, Duration max) {
			if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
				throw new IllegalArgumentException(
						"the backoff must be positive and its maximum at least its minimum, was " + min + " to " + max);
			}
			this.minBackoff = min;
			this.maxBackoff = max;
			return this;
		}

		/**
		 * Set how long {@link AuditOutbox#close()} waits for the sink to store what is
		 * journaled.
		 * @param closeTimeout the time; zero (by default) closes at once
		 * @return this builder
		 */
		public Builder closeTimeout(Duration closeTimeout) {
			if (closeTimeout.isNegative()) {
				throw new IllegalArgumentException("'closeTimeout' must not be negative, was " + closeTimeout);
			}
			this.closeTimeout = closeTimeout;
			return this;
		}

		/**
		 * Open the journal and start sending what it holds.
		 * @return the outbox
		 * @throws UncheckedIOException if the directory cannot be used
		 * @throws IllegalStateException if another outbox holds the directory
		 */
		public AuditOutbox build() {
			try {
				return new AuditOutbox(this);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("The audit outbox directory " + this.directory.toAbsolutePath()
						+ " cannot be used: " + ex.getMessage(), ex);
			}
		}

	}

}
