package dev.agcore.audit.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditListener;
import dev.agcore.memory.jdbc.JdbcSchema;
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

	private final DataSource dataSource;

	private final String insert;

	private final Scheduler scheduler;

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
		this.insert = "INSERT INTO " + JdbcSchema.validatePrefix(tablePrefix) + "audit_event (event_time, kind, "
				+ "agent, session_id, user_id, tool, tool_call_id, arguments, outcome, detail) "
				+ "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	}

	@Override
	public void onAuditEvent(AuditEvent event) {
		this.scheduler.schedule(() -> write(event));
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
			logger.warn("Audit event {} of agent '{}' could not be written: {}", event.kind(), event.agent(),
					ex.toString());
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
