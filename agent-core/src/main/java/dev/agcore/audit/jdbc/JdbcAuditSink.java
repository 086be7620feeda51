package dev.agcore.audit.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditListener;
import dev.agcore.audit.AuditSink;
import dev.agcore.audit.AuditSinkException;
import dev.agcore.memory.jdbc.JdbcSchema;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Stores each {@link AuditEvent} (already redacted) as a row of
 * {@code <prefix>audit_event}, once: a row's {@code event_id} is unique, and an event
 * stored again is skipped ({@code ON CONFLICT DO NOTHING} on PostgreSQL,
 * {@code ON DUPLICATE KEY UPDATE} of nothing on MariaDB and MySQL, an insert guarded by
 * {@code NOT EXISTS} elsewhere). As an {@link AuditSink} it is what an
 * {@link dev.agcore.audit.outbox.AuditOutbox} drains to, which makes the trail durable;
 * as a bare {@link AuditListener} it writes on a scheduler that may block, and a write
 * that fails is only logged.
 * <p>
 * With {@link #chain(boolean) a chain}, each row also holds its place in the chain, the
 * hash of the row before it and its own (SHA-256 over that hash and its content), so that
 * {@link #verify()} finds a row edited or deleted. Appends lock the chain's head row
 * ({@code <prefix>audit_chain}), so that instances sharing the table extend one chain in
 * turn.
 * <p>
 * Texts are stored as the database can keep them: cut to their column's size, and NUL
 * characters and unpaired surrogates (which PostgreSQL refuses) replaced by U+FFFD, so
 * that no event is refused for what a caller or a model wrote.
 *
 * @since 0.1.0
 */
public final class JdbcAuditSink implements AuditListener, AuditSink {

	/** The table of the events and its scripts ({@code dev/agcore/audit/jdbc/schema-<platform>.sql}). */
	public static final JdbcSchema SCHEMA = new JdbcSchema("audit", "JDBC audit sink", "dev/agcore/audit/jdbc",
			List.of("audit_event", "audit_chain"));

	private static final String COLUMNS = "event_time, kind, agent, session_id, user_id, tool, tool_call_id, "
			+ "arguments, outcome, detail, event_id, chain_seq, prev_hash, row_hash";

	private static final Logger logger = LoggerFactory.getLogger(JdbcAuditSink.class);

	private static final Duration PURGE_EVERY = Duration.ofHours(1);

	private static final String PARAMETERS = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

	private final DataSource dataSource;

	private final String table;

	private final String chainTable;

	private volatile @Nullable String platform;

	private boolean chain;

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
		this.table = JdbcSchema.validatePrefix(tablePrefix) + "audit_event";
		this.chainTable = tablePrefix + "audit_chain";
		this.purge = "DELETE FROM " + this.table + " WHERE event_time < ?";
	}

	/**
	 * Chain the rows this sink writes by their hashes, so that {@link #verify()} finds a
	 * row edited or deleted. Every writer of the table must chain.
	 * @param chain whether to chain
	 * @return this sink
	 */
	public JdbcAuditSink chain(boolean chain) {
		this.chain = chain;
		return this;
	}

	/**
	 * Say which database this is, rather than have the first write ask it.
	 * @param platform {@code postgresql}, {@code h2}, {@code mariadb} or {@code mysql};
	 * another gets the portable insert
	 * @return this sink
	 */
	public JdbcAuditSink platform(String platform) {
		this.platform = Objects.requireNonNull(platform, "'platform' must not be null").toLowerCase(Locale.ROOT);
		return this;
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
		this.scheduler.schedule(() -> write(event));
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
	 * @return whether it was written (or was there already)
	 */
	public boolean write(AuditEvent event) {
		try {
			store(List.of(event));
			return true;
		}
		catch (AuditSinkException ex) {
			logger.warn("Audit event {} of agent '{}' could not be written: {}", event.kind(), LogSafe.text(event.agent()),
					LogSafe.text(ex.getMessage()));
			return false;
		}
	}

	/**
	 * Store events in one transaction, on this thread; those already stored are skipped.
	 * @param events the events, oldest first
	 * @throws AuditSinkException if they could not be stored
	 */
	@Override
	public void store(List<AuditEvent> events) {
		if (events.isEmpty()) {
			return;
		}
		try (Connection connection = this.dataSource.getConnection()) {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(false);
			try {
				if (this.chain) {
					appendToChain(connection, events);
				}
				else {
					insert(connection, events);
				}
				connection.commit();
				purgeWhenDue();
			}
			catch (SQLException | RuntimeException ex) {
				rollback(connection);
				throw ex;
			}
			finally {
				restore(connection, autoCommit);
			}
		}
		catch (SQLException | RuntimeException ex) {
			throw failure(events.size(), ex);
		}
	}

	private void insert(Connection connection, List<AuditEvent> events) throws SQLException {
		String platform = platform(connection);
		String sql = switch (platform) {
			case "postgresql" -> "INSERT INTO " + this.table + " (" + COLUMNS + ") VALUES (" + PARAMETERS
					+ ") ON CONFLICT (event_id) DO NOTHING";
			case "mariadb", "mysql" -> "INSERT INTO " + this.table + " (" + COLUMNS + ") VALUES (" + PARAMETERS
					+ ") ON DUPLICATE KEY UPDATE event_id = event_id";
			default -> null;
		};
		if (sql != null) {
			try (PreparedStatement statement = connection.prepareStatement(sql)) {
				for (AuditEvent event : events) {
					bind(statement, AuditRows.storable(event), null, null, null);
					statement.addBatch();
				}
				statement.executeBatch();
			}
			return;
		}
		// H2 and others: skipped when there, and a write racing this one is a duplicate too
		try (PreparedStatement exists = connection.prepareStatement(this.existsSql());
				PreparedStatement statement = connection.prepareStatement(insertSql())) {
			for (AuditEvent event : events) {
				if (!exists(exists, event)) {
					bind(statement, AuditRows.storable(event), null, null, null);
					try {
						statement.executeUpdate();
					}
					catch (SQLException ex) {
						if (!isDuplicate(ex) || !exists(exists, event)) {
							throw ex;
						}
					}
				}
			}
		}
	}

	private void appendToChain(Connection connection, List<AuditEvent> events) throws SQLException {
		long seq;
		String hash;
		try (PreparedStatement head = connection
			.prepareStatement("SELECT chain_seq, row_hash FROM " + this.chainTable + " WHERE id = 1 FOR UPDATE");
				ResultSet row = head.executeQuery()) {
			if (!row.next()) {
				throw new SQLException("The audit chain has no head row in " + this.chainTable
						+ ": create the schema again (its script inserts the row)", "42000");
			}
			seq = row.getLong(1);
			hash = row.getString(2);
		}
		long start = seq;
		try (PreparedStatement exists = connection.prepareStatement(existsSql());
				PreparedStatement insert = connection.prepareStatement(insertSql())) {
			for (AuditEvent each : events) {
				AuditEvent event = AuditRows.storable(each);
				// the head's lock orders every writer: no other can store this event meanwhile
				if (exists(exists, event)) {
					continue;
				}
				seq++;
				String rowHash = ChainHash.of(hash, seq, event);
				bind(insert, event, seq, hash, rowHash);
				insert.executeUpdate();
				hash = rowHash;
			}
		}
		if (seq != start) {
			try (PreparedStatement update = connection
				.prepareStatement("UPDATE " + this.chainTable + " SET chain_seq = ?, row_hash = ? WHERE id = 1")) {
				update.setLong(1, seq);
				update.setString(2, hash);
				update.executeUpdate();
			}
		}
	}

	/**
	 * Check the hash chain, on this thread: every chained row must hash to what it holds,
	 * name the hash of the row before it, and follow it in sequence; the newest must be
	 * the chain's head. A row edited, deleted or inserted by hand breaks it. Rows written
	 * without a chain are not checked.
	 * @return what was found
	 * @throws AuditSinkException if the table cannot be read
	 */
	public AuditChainVerification verify() {
		try (Connection connection = this.dataSource.getConnection()) {
			return AuditRows.verify(connection, this.table, this.chainTable);
		}
		catch (SQLException | RuntimeException ex) {
			throw failure(0, ex);
		}
	}

	private String insertSql() {
		return "INSERT INTO " + this.table + " (" + COLUMNS + ") VALUES (" + PARAMETERS + ")";
	}

	private String existsSql() {
		return "SELECT 1 FROM " + this.table + " WHERE event_id = ?";
	}

	private static boolean exists(PreparedStatement exists, AuditEvent event) throws SQLException {
		exists.setString(1, event.id().toString());
		try (ResultSet row = exists.executeQuery()) {
			return row.next();
		}
	}

	private static void bind(PreparedStatement statement, AuditEvent event, @Nullable Long seq,
			@Nullable String previous, @Nullable String hash) throws SQLException {
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
		statement.setString(11, event.id().toString());
		if (seq != null) {
			statement.setLong(12, seq);
		}
		else {
			statement.setNull(12, Types.BIGINT);
		}
		setNullable(statement, 13, previous);
		setNullable(statement, 14, hash);
	}

	private String platform(Connection connection) throws SQLException {
		String known = this.platform;
		if (known == null) {
			String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
			known = List.of("postgresql", "h2", "mariadb", "mysql")
				.stream()
				.filter(product::contains)
				.findFirst()
				.orElse(product);
			this.platform = known;
		}
		return known;
	}

	// 23505 and 23000 (MariaDB, MySQL): a unique key that was there already
	private static boolean isDuplicate(SQLException ex) {
		return "23505".equals(ex.getSQLState()) || "23000".equals(ex.getSQLState());
	}

	/**
	 * The database refused the rows themselves (a data or integrity error: retrying them as
	 * they are will not help), or could not be reached, or anything else, which is retried.
	 */
	private static AuditSinkException failure(int events, Exception ex) {
		String state = (ex instanceof SQLException sql) ? sql.getSQLState() : null;
		boolean refused = state != null && (state.startsWith("22") || state.startsWith("23"));
		String what = (events == 0) ? "The audit table could not be read"
				: events + " audit event(s) could not be stored";
		return new AuditSinkException(what + " (" + ex.getClass().getSimpleName()
				+ ((state != null) ? ", SQL state " + state : "") + ")", !refused, ex);
	}

	private static void rollback(Connection connection) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			// the connection is gone: nothing was committed
		}
	}

	private static void restore(Connection connection, boolean autoCommit) {
		try {
			connection.setAutoCommit(autoCommit);
		}
		catch (SQLException ex) {
			// the pool discards a broken connection
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
