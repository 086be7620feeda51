package dev.agcore.budget.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.jdbc.JdbcSchema;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.AbstractSelectForUpdateBasedProxyManager;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.LockAndGetResult;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.SelectForUpdateBasedTransaction;
import io.github.bucket4j.distributed.remote.RemoteBucketState;

/**
 * Keeps bucket4j buckets in the table {@code <prefix>budget_bucket} of a database, with
 * the same standard SQL on PostgreSQL, H2 and MariaDB: bucket4j's select-for-update
 * protocol locks a bucket's row while its state is read and written, so every instance
 * counts against the same row. Each row records when its bucket would be full again;
 * {@link #purgeExpired()} deletes those rows, which changes nothing a limit decides.
 *
 * @since 0.1.0
 */
public final class JdbcBudgetProxyManager extends AbstractSelectForUpdateBasedProxyManager<String> {

	/** The table of the buckets and its scripts ({@code dev/agcore/budget/jdbc/schema-<platform>.sql}). */
	public static final JdbcSchema SCHEMA = new JdbcSchema("budget", "JDBC budget store", "dev/agcore/budget/jdbc",
			List.of("budget_bucket"));

	/** A bucket's row is kept this long after its bucket is full again. */
	private static final ExpirationAfterWriteStrategy EXPIRATION = ExpirationAfterWriteStrategy
		.basedOnTimeForRefillingBucketUpToMax(Duration.ofMinutes(1));

	private final DataSource dataSource;

	private final String select;

	private final String insert;

	private final String update;

	private final String delete;

	private final String purge;

	/**
	 * Create a proxy manager.
	 * @param dataSource the database
	 * @param tablePrefix the prefix of the table, such as {@code agent_}
	 * @param config bucket4j's client-side settings (a test's clock)
	 */
	public JdbcBudgetProxyManager(DataSource dataSource, String tablePrefix, ClientSideConfig config) {
		super(config);
		this.dataSource = Objects.requireNonNull(dataSource, "'dataSource' must not be null");
		String table = JdbcSchema.validatePrefix(tablePrefix) + "budget_bucket";
		this.select = "SELECT state FROM " + table + " WHERE bucket_key = ? FOR UPDATE";
		this.insert = "INSERT INTO " + table + " (bucket_key, state, expires_at) VALUES (?, NULL, 0)";
		this.update = "UPDATE " + table + " SET state = ?, expires_at = ? WHERE bucket_key = ?";
		this.delete = "DELETE FROM " + table + " WHERE bucket_key = ?";
		this.purge = "DELETE FROM " + table + " WHERE expires_at < ?";
	}

	/**
	 * Create a proxy manager on the system clock.
	 * @param dataSource the database
	 * @param tablePrefix the prefix of the table
	 */
	public JdbcBudgetProxyManager(DataSource dataSource, String tablePrefix) {
		this(dataSource, tablePrefix, ClientSideConfig.getDefault());
	}

	@Override
	protected SelectForUpdateBasedTransaction allocateTransaction(String key, Optional<Long> requestTimeoutNanos) {
		Connection connection;
		try {
			connection = this.dataSource.getConnection();
		}
		catch (SQLException ex) {
			throw new MemoryUnavailableException("The budget database cannot be reached", ex);
		}
		return new Transaction(connection, key);
	}

	@Override
	public void removeProxy(String key) {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(this.delete)) {
			statement.setString(1, key);
			statement.executeUpdate();
		}
		catch (SQLException ex) {
			throw new MemoryUnavailableException("The budget database cannot be reached", ex);
		}
	}

	@Override
	public boolean isExpireAfterWriteSupported() {
		return true;
	}

	/**
	 * Delete the rows of buckets that are full again.
	 * @return how many rows were deleted
	 */
	public int purgeExpired() {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(this.purge)) {
			statement.setLong(1, nowMillis());
			return statement.executeUpdate();
		}
		catch (SQLException ex) {
			throw new MemoryUnavailableException("The budget database cannot be reached", ex);
		}
	}

	private long nowMillis() {
		return currentTimeNanos() / 1_000_000L;
	}

	private static RuntimeException failure(SQLException ex) {
		return new MemoryUnavailableException("A budget could not be read or written in the database", ex);
	}

	/** One bucket4j transaction on its own connection. */
	private final class Transaction implements SelectForUpdateBasedTransaction {

		private final Connection connection;

		private final String key;

		Transaction(Connection connection, String key) {
			this.connection = connection;
			this.key = key;
		}

		@Override
		public void begin(Optional<Long> timeout) {
			try {
				this.connection.setAutoCommit(false);
			}
			catch (SQLException ex) {
				throw failure(ex);
			}
		}

		@Override
		public LockAndGetResult tryLockAndGet(Optional<Long> timeout) {
			try (PreparedStatement statement = this.connection.prepareStatement(JdbcBudgetProxyManager.this.select)) {
				applyTimeout(statement, timeout);
				statement.setString(1, this.key);
				try (ResultSet rows = statement.executeQuery()) {
					// a row without state is one just inserted: locked, but empty
					return rows.next() ? LockAndGetResult.locked(rows.getBytes(1)) : LockAndGetResult.notLocked();
				}
			}
			catch (SQLException ex) {
				throw failure(ex);
			}
		}

		@Override
		public boolean tryInsertEmptyData(Optional<Long> timeout) {
			try (PreparedStatement statement = this.connection.prepareStatement(JdbcBudgetProxyManager.this.insert)) {
				applyTimeout(statement, timeout);
				statement.setString(1, this.key);
				return statement.executeUpdate() == 1;
			}
			catch (SQLException ex) {
				if (ex.getSQLState() != null && ex.getSQLState().startsWith("23")) {
					// another instance inserted it first: bucket4j rolls back and tries again
					return false;
				}
				throw failure(ex);
			}
		}

		@Override
		public void update(byte[] data, RemoteBucketState newState, Optional<Long> timeout) {
			long now = nowMillis();
			long ttl = EXPIRATION.calculateTimeToLiveMillis(newState, now * 1_000_000L);
			try (PreparedStatement statement = this.connection.prepareStatement(JdbcBudgetProxyManager.this.update)) {
				applyTimeout(statement, timeout);
				statement.setBytes(1, data);
				statement.setLong(2, now + Math.max(ttl, 0));
				statement.setString(3, this.key);
				statement.executeUpdate();
			}
			catch (SQLException ex) {
				throw failure(ex);
			}
		}

		@Override
		public void commit(Optional<Long> timeout) {
			try {
				this.connection.commit();
			}
			catch (SQLException ex) {
				throw failure(ex);
			}
		}

		@Override
		public void rollback() {
			try {
				this.connection.rollback();
			}
			catch (SQLException ex) {
				throw failure(ex);
			}
		}

		@Override
		public void release() {
			try {
				this.connection.close();
			}
			catch (SQLException ex) {
				throw failure(ex);
			}
		}

	}

}
