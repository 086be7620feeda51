package dev.agcore.audit.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditListener;
import dev.agcore.memory.jdbc.JdbcSchema;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Writes each {@link AuditEvent} (already redacted) as a row of
 * {@code <prefix>audit_event}. The insert runs on a scheduler that may block, never on
 * the turn's thread, which may be an event loop; a write that fails is logged.
 *
 * @since 0.1.0
 */
public final class JdbcAuditSink implements AuditListener {

	/** The table of the events and its scripts ({@code dev/agcore/audit/jdbc/schema-<platform>.sql}). */
	public static final JdbcSchema SCHEMA = new JdbcSchema("audit", "JDBC audit sink", "dev/agcore/audit/jdbc",
			List.of("audit_event"));

	private static final Logger logger = LoggerFactory.getLogger(JdbcAuditSink.class);

	private static final Duration PURGE_EVERY = Duration.ofHours(1);

	private final DataSource dataSource;

	private final String insert;

	private final Scheduler scheduler;

	private final String purge;

	private @Nullable Duration retention;

	private Clock clock = Clock.systemUTC();

	// epoch millis of the next purge, when a retention is set: at most one an hour
	private final AtomicLong nextPurge = new AtomicLong();

	/**
	 * Create a sink that writes on {@link Schedulers#boundedElastic()}.
	 * @param dataSource the database
	 * @param tablePrefix the prefix of the table, such as {@code agent_}
	 */
	public JdbcAuditSink(DataSource dataSource, String tablePrefix) {
		this(dataSource, tablePrefix, Schedulers.boundedElastic());
	}

	/**
	 * Create a sink.
	 * @param dataSource the database
	 * @param tablePrefix the prefix of the table
	 * @param scheduler where the inserts run; {@link Schedulers#immediate()} writes on the
	 * caller's thread
	 */
	public JdbcAuditSink(DataSource dataSource, String tablePrefix, Scheduler scheduler) {
		this.dataSource = Objects.requireNonNull(dataSource, "'dataSource' must not be null");
		this.scheduler = Objects.requireNonNull(scheduler, "'scheduler' must not be null");
		String table = JdbcSchema.validatePrefix(tablePrefix) + "audit_event";
		this.insert = "INSERT INTO " + table + " (event_time, kind, "
				+ "agent, session_id, user_id, tool, tool_call_id, arguments, outcome, detail) "
				+ "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
		this.purge = "DELETE FROM " + table + " WHERE event_time < ?";
	}

	/**
	 * Keep events for a time only: older rows are deleted by the writes that follow, at most
	 * once an hour (an audit trail without new events keeps its rows until the next one).
	 * Without a retention every row is kept.
	 * @param retention how long rows are kept
	 * @param clock the clock the age is measured with
	 * @return this sink
	 */
	public JdbcAuditSink retention(Duration retention, Clock clock) {
		if (retention.isNegative() || retention.isZero()) {
			throw new IllegalArgumentException("'retention' must be positive, was " + retention);
		}
		this.retention = retention;
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
		return this;
	}

	@Override
	public void onAuditEvent(AuditEvent event) {
		this.scheduler.schedule(() -> {
			write(event);
			purgeWhenDue();
		});
	}

	/**
	 * Delete the rows of events older than a time, now, on this thread.
	 * @param cutoff the time before which events are deleted
	 * @return how many rows were deleted; -1 when the delete failed (logged)
	 */
	public long purgeOlderThan(Instant cutoff) {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(this.purge)) {
			statement.setTimestamp(1, Timestamp.from(cutoff));
			return statement.executeUpdate();
		}
		catch (SQLException | RuntimeException ex) {
			logger.warn("Audit events older than {} could not be purged: {}", cutoff, LogSafe.text(ex.toString()));
			return -1;
		}
	}

	private void purgeWhenDue() {
		Duration keep = this.retention;
		if (keep == null) {
			return;
		}
		long now = this.clock.millis();
		long due = this.nextPurge.get();
		if (now >= due && this.nextPurge.compareAndSet(due, now + PURGE_EVERY.toMillis())) {
			purgeOlderThan(Instant.ofEpochMilli(now).minus(keep));
		}
	}

	/**
	 * Write one event now, on this thread.
	 * @param event the event
	 * @return whether it was written
	 */
	public boolean write(AuditEvent event) {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(this.insert)) {
			statement.setTimestamp(1, Timestamp.from(event.time()));
			statement.setString(2, event.kind().name());
			statement.setString(3, event.agent());
			statement.setString(4, event.sessionId());
			setNullable(statement, 5, event.userId());
			setNullable(statement, 6, event.tool());
			setNullable(statement, 7, event.toolCallId());
			statement.setString(8, event.arguments());
			statement.setString(9, event.outcome());
			statement.setString(10, event.detail());
			statement.executeUpdate();
			return true;
		}
		catch (SQLException | RuntimeException ex) {
			logger.warn("Audit event {} of agent '{}' could not be written: {}", event.kind(),
					LogSafe.text(event.agent()), LogSafe.text(ex.toString()));
			return false;
		}
	}

	private static void setNullable(PreparedStatement statement, int index, @Nullable String value)
			throws SQLException {
		if (value != null) {
			statement.setString(index, value);
		}
		else {
			statement.setNull(index, Types.VARCHAR);
		}
	}

}
