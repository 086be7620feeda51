package dev.agcore.run.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.BufferOverflowStrategy;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * The one connection of a store that {@code LISTEN}s to its two channels, on a daemon
 * thread of its own, fanning the notifications out to the store's subscribers. Started by
 * the first subscription; after a failure (the database restarted, the connection was
 * killed) it connects again with a growing backoff, and notifications sent meanwhile are
 * lost, which readers make up for by polling.
 */
final class PostgresNotifications implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(PostgresNotifications.class);

	private static final int POLL_MILLIS = 500;

	private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

	private final DataSource dataSource;

	private final String eventsChannel;

	private final String submittedChannel;

	private final Sinks.Many<String> appended = Sinks.many().multicast().directBestEffort();

	private final Sinks.Many<String> submitted = Sinks.many().multicast().directBestEffort();

	private @Nullable Thread thread;

	private volatile int backendPid;

	private volatile boolean closed;

	PostgresNotifications(DataSource dataSource, String eventsChannel, String submittedChannel) {
		this.dataSource = dataSource;
		this.eventsChannel = eventsChannel;
		this.submittedChannel = submittedChannel;
	}

	Flux<String> appended() {
		return signals(this.appended);
	}

	Flux<String> submitted() {
		return signals(this.submitted);
	}

	// each subscriber buffers on its own, so a slow one loses its oldest signals, not others'
	private Flux<String> signals(Sinks.Many<String> sink) {
		return Flux.defer(() -> {
			start();
			return sink.asFlux();
		}).onBackpressureBuffer(10_000, (dropped) -> { }, BufferOverflowStrategy.DROP_OLDEST);
	}

	/** The backend process id of the listening connection, or 0 while it is not listening. */
	int backendPid() {
		return this.backendPid;
	}

	private synchronized void start() {
		if (this.thread != null || this.closed) {
			return;
		}
		Thread listener = new Thread(this::listen, "agent-runs-listen-" + this.eventsChannel);
		listener.setDaemon(true);
		this.thread = listener;
		listener.start();
	}

	private void listen() {
		long backoff = 100;
		while (!this.closed) {
			try (Connection listening = this.dataSource.getConnection()) {
				listening.setAutoCommit(true);
				try (Statement statement = listening.createStatement()) {
					statement.execute("LISTEN \"" + this.eventsChannel + "\"");
					statement.execute("LISTEN \"" + this.submittedChannel + "\"");
					try (ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
						pid.next();
						this.backendPid = pid.getInt(1);
					}
				}
				backoff = 100;
				PGConnection notifications = listening.unwrap(PGConnection.class);
				while (!this.closed) {
					PGNotification[] received = notifications.getNotifications(POLL_MILLIS);
					if (received != null) {
						for (PGNotification notification : received) {
							dispatch(notification);
						}
					}
				}
			}
			catch (SQLException | RuntimeException ex) {
				this.backendPid = 0;
				if (this.closed) {
					break;
				}
				logger.warn("Listening for run notifications failed ({}); connecting again in {} ms",
						LogSafe.text(ex.getMessage()), backoff);
				sleep(backoff);
				backoff = Math.min(backoff * 2, MAX_BACKOFF.toMillis());
			}
			finally {
				this.backendPid = 0;
			}
		}
	}

	private void dispatch(PGNotification notification) {
		Sinks.Many<String> sink = this.eventsChannel.equals(notification.getName()) ? this.appended : this.submitted;
		// only this thread emits, so a failure can only be "no subscriber"
		sink.tryEmitNext(notification.getParameter());
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		Thread listener;
		synchronized (this) {
			this.closed = true;
			listener = this.thread;
		}
		if (listener != null) {
			try {
				// the loop ends within one poll
				listener.join(POLL_MILLIS * 4L);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.appended.tryEmitComplete();
		this.submitted.tryEmitComplete();
	}

}
