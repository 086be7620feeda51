package dev.agcore.memory.jdbc;

import java.net.ConnectException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.Callable;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.MemoryUnavailableException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;

/**
 * What the JDBC stores of agent-core share (memory, runs, workflow checkpoints): each
 * operation runs in one transaction on a thread that may block, and database errors
 * become memory errors that name the store, say what to do, and never carry the
 * connection's URL or credentials. An unreachable database becomes a
 * {@link MemoryUnavailableException}; a missing table a {@link MemoryException} that
 * lists the store's tables and says how to create them. Public for the other JDBC stores
 * of agent-core; not meant for applications.
 *
 * @since 0.1.0
 */
public final class JdbcOperations {

	/**
	 * What a store's error messages name, and which failures of its own pass untranslated.
	 * @param name the store's name in messages, such as {@code JDBC run store}
	 * @param tables its tables, without the prefix, listed when they do not exist
	 * @param schemaScript the path of its schema scripts, such as
	 * {@code dev/agcore/run/jdbc/schema-<platform>.sql}
	 * @param untranslated the store's own failures, thrown by its work, that pass as they are
	 * (a {@link MemoryException} always does)
	 */
	public record Store(String name, List<String> tables, String schemaScript,
			List<Class<? extends RuntimeException>> untranslated) {

		/**
		 * Describe a store whose only untranslated failures are memory errors.
		 * @param name the store's name in messages
		 * @param tables its tables, without the prefix
		 * @param schemaScript the path of its schema scripts
		 */
		public Store(String name, List<String> tables, String schemaScript) {
			this(name, tables, schemaScript, List.of());
		}

		public Store {
			tables = List.copyOf(tables);
			untranslated = List.copyOf(untranslated);
		}

		/**
		 * Let more of the store's own failures pass untranslated.
		 * @param types the failures
		 * @return a copy of this description
		 */
		@SafeVarargs
		public final Store untranslated(Class<? extends RuntimeException>... types) {
			List<Class<? extends RuntimeException>> all = new ArrayList<>(this.untranslated);
			all.addAll(List.of(types));
			return new Store(this.name, this.tables, this.schemaScript, all);
		}

	}

	private final Store store;

	private final String tablePrefix;

	private final JdbcTemplate jdbcTemplate;

	private final JdbcClient jdbcClient;

	private final TransactionTemplate transactions;

	/**
	 * Create the operations of a store.
	 * @param store what its messages name
	 * @param dataSource the database
	 * @param tablePrefix the prefix of its tables
	 * @throws IllegalArgumentException if the prefix is not valid
	 * ({@link JdbcSchema#validatePrefix(String)})
	 */
	public JdbcOperations(Store store, DataSource dataSource, String tablePrefix) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		this.tablePrefix = JdbcSchema.validatePrefix(tablePrefix);
		this.jdbcTemplate = new JdbcTemplate(dataSource);
		this.jdbcClient = JdbcClient.create(this.jdbcTemplate);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		// the default of PostgreSQL and H2; on MariaDB it avoids gap locks, which deadlock
		// concurrent inserts of new keys
		this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	/**
	 * Create the operations of a memory store, on the memory tables.
	 * @param storeName the store's name in messages
	 * @param dataSource the database
	 * @param tablePrefix the prefix of its tables
	 */
	JdbcOperations(String storeName, DataSource dataSource, String tablePrefix) {
		this(JdbcMemorySchema.SCHEMA.store(storeName), dataSource, tablePrefix);
	}

	/**
	 * The template on the store's database.
	 * @return the template
	 */
	public JdbcTemplate jdbcTemplate() {
		return this.jdbcTemplate;
	}

	/**
	 * The client on the store's database.
	 * @return the client
	 */
	public JdbcClient jdbcClient() {
		return this.jdbcClient;
	}

	/**
	 * Run a unit of work in one transaction on a thread that may block; errors are
	 * translated.
	 * @param <T> the type of the result
	 * @param work the work
	 * @return its result, when subscribed to
	 */
	public <T> Mono<T> inTransaction(Callable<@Nullable T> work) {
		return Mono.<T>fromCallable(() -> callInTransaction(work)).subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Run a unit of work in one transaction on a thread that may block, again (up to three
	 * times) if it lost a race another transaction won: a duplicate key or a deadlock.
	 * @param <T> the type of the result
	 * @param work the work
	 * @return its result, when subscribed to
	 */
	public <T> Mono<T> inTransactionRetrying(Callable<@Nullable T> work) {
		return Mono.<T>fromCallable(() -> callInTransactionRetrying(work)).subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Run a unit of work in one transaction on the calling thread; errors are translated.
	 * @param <T> the type of the result
	 * @param work the work
	 * @return its result
	 */
	public <T> @Nullable T callInTransaction(Callable<@Nullable T> work) {
		return callInTransaction(work, false);
	}

	/**
	 * Run a unit of work in one transaction on the calling thread, again (up to three
	 * times) if it lost a race another transaction won; errors are translated.
	 * @param <T> the type of the result
	 * @param work the work
	 * @return its result
	 */
	public <T> @Nullable T callInTransactionRetrying(Callable<@Nullable T> work) {
		for (int attempt = 1;; attempt++) {
			try {
				return callInTransaction(work, attempt < 3);
			}
			catch (DuplicateKeyException | PessimisticLockingFailureException ex) {
				// lost the race: the next attempt sees the winner's row
			}
		}
	}

	private <T> @Nullable T callInTransaction(Callable<@Nullable T> work, boolean rethrowRaces) {
		try {
			return this.transactions.execute((status) -> {
				try {
					return work.call();
				}
				catch (RuntimeException ex) {
					throw ex;
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
		}
		catch (MemoryException ex) {
			throw ex;
		}
		catch (DuplicateKeyException | PessimisticLockingFailureException ex) {
			throw rethrowRaces ? ex : translate(ex);
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	/**
	 * Translate a failure: a memory error or one of the store's own failures passes as it
	 * is, an unreachable database becomes a {@link MemoryUnavailableException}, a missing
	 * table an error that says how to create the schema, an
	 * {@link IllegalArgumentException} passes, anything else becomes a
	 * {@link MemoryException} naming the store.
	 * @param ex the failure
	 * @return the failure to report
	 */
	public RuntimeException translate(RuntimeException ex) {
		if (ex instanceof MemoryException || isUntranslated(ex)) {
			return ex;
		}
		if (isUnavailable(ex)) {
			return new MemoryUnavailableException("The " + this.store.name() + " cannot reach its database ("
					+ rootCause(ex).getClass().getSimpleName() + "); the operation did not complete. It reconnects by "
					+ "itself once the database is back", ex);
		}
		if (isMissingTable(ex)) {
			StringJoiner tables = new StringJoiner(", ");
			this.store.tables().forEach((table) -> tables.add(this.tablePrefix + table));
			return new MemoryException("The tables of the " + this.store.name() + " (" + tables + ") do not exist: "
					+ "create the schema (set agent.memory.jdbc.initialize-schema=always, or run the script "
					+ this.store.schemaScript() + " through your migrations)", ex);
		}
		if (ex instanceof IllegalArgumentException) {
			return ex;
		}
		return new MemoryException("The " + this.store.name() + " failed: " + ex.getMessage(), ex);
	}

	private boolean isUntranslated(RuntimeException ex) {
		for (Class<? extends RuntimeException> type : this.store.untranslated()) {
			if (type.isInstance(ex)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isUnavailable(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof DataAccessResourceFailureException
					|| cause instanceof TransientDataAccessResourceException
					|| cause instanceof CannotCreateTransactionException
					|| cause instanceof SQLTransientConnectionException
					|| cause instanceof SQLNonTransientConnectionException || cause instanceof SQLRecoverableException
					|| cause instanceof ConnectException) {
				return true;
			}
			if (cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
				return true;
			}
			// a rollback that failed because the connection broke hides the failure that caused it
			if (cause instanceof TransactionSystemException system && system.getApplicationException() != null
					&& isUnavailable(system.getApplicationException())) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	// 42P01: PostgreSQL's undefined table; 42S02: H2, MySQL and MariaDB; 42S04: H2 on an empty database
	private static boolean isMissingTable(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql && ("42P01".equals(sql.getSQLState())
					|| "42S02".equals(sql.getSQLState()) || "42S04".equals(sql.getSQLState()))) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	private static Throwable rootCause(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

	/**
	 * Split a schema script into its statements: comment lines ({@code --}) and blank lines
	 * are left out, and each statement ends with a semicolon, which is dropped.
	 * @param script the script, its prefix in place
	 * @return the statements, in order
	 */
	public static List<String> statements(String script) {
		List<String> statements = new ArrayList<>();
		StringBuilder current = new StringBuilder();
		for (String line : script.split("\n")) {
			String trimmed = line.strip();
			if (trimmed.isEmpty() || trimmed.startsWith("--")) {
				continue;
			}
			current.append(line).append('\n');
			if (trimmed.endsWith(";")) {
				String statement = current.toString().strip();
				statements.add(statement.substring(0, statement.length() - 1));
				current.setLength(0);
			}
		}
		if (!current.toString().isBlank()) {
			statements.add(current.toString().strip());
		}
		return statements;
	}

	/**
	 * Execute schema statements one by one on a connection in auto-commit mode.
	 * @param dataSource the database
	 * @param statements the statements
	 * @throws SQLException if one fails
	 */
	public static void execute(DataSource dataSource, List<String> statements) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(true);
			try {
				for (String sql : statements) {
					statement.execute(sql);
				}
			}
			finally {
				connection.setAutoCommit(autoCommit);
			}
		}
	}

	/**
	 * Instants are kept to the microsecond, the precision of PostgreSQL and H2 timestamps.
	 * @param instant an instant
	 * @return it, to the microsecond
	 */
	public static Instant truncate(Instant instant) {
		return instant.truncatedTo(ChronoUnit.MICROS);
	}

	/**
	 * An instant as a timestamp parameter: in UTC, to the microsecond.
	 * @param instant an instant
	 * @return the timestamp
	 */
	public static OffsetDateTime timestamp(Instant instant) {
		return OffsetDateTime.ofInstant(truncate(instant), ZoneOffset.UTC);
	}

}
