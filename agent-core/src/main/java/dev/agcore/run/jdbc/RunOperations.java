package dev.agcore.run.jdbc;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Callable;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunStateException;
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

/**
 * Transactions of the run store, as {@code dev.agcore.memory.jdbc}'s stores run theirs:
 * each operation in one transaction on a thread that may block, and database errors
 * turned into memory errors that say what to do and never carry the connection's URL.
 */
final class RunOperations {

	private final String tablePrefix;

	private final JdbcTemplate jdbcTemplate;

	private final JdbcClient jdbcClient;

	private final TransactionTemplate transactions;

	RunOperations(DataSource dataSource, String tablePrefix) {
		this.tablePrefix = tablePrefix;
		this.jdbcTemplate = new JdbcTemplate(dataSource);
		this.jdbcClient = JdbcClient.create(this.jdbcTemplate);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		// the default of PostgreSQL and H2; on MariaDB it avoids gap locks
		this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	JdbcTemplate jdbcTemplate() {
		return this.jdbcTemplate;
	}

	JdbcClient jdbcClient() {
		return this.jdbcClient;
	}

	/** Run a unit of work in one transaction on a thread that may block; errors are translated. */
	<T> Mono<T> inTransaction(Callable<@Nullable T> work) {
		return Mono.<T>fromCallable(() -> call(work, false)).subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Run a unit of work in one transaction on a thread that may block, again (up to three
	 * times) if it lost a race: a duplicate key (two submits with one idempotency key) or a
	 * deadlock.
	 */
	<T> Mono<T> inTransactionRetrying(Callable<@Nullable T> work) {
		return Mono.<T>fromCallable(() -> {
			for (int attempt = 1;; attempt++) {
				try {
					return call(work, attempt < 3);
				}
				catch (DuplicateKeyException | PessimisticLockingFailureException ex) {
					// lost the race: the next attempt sees the winner's row
				}
			}
		}).subscribeOn(Schedulers.boundedElastic());
	}

	private <T> @Nullable T call(Callable<@Nullable T> work, boolean rethrowRaces) {
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
		catch (MemoryException | RunStateException | RunNotFoundException | IllegalArgumentException ex) {
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
	 * Translate a failure: an unreachable database to {@link MemoryUnavailableException},
	 * a missing table to an error that says how to create the schema.
	 */
	RuntimeException translate(RuntimeException ex) {
		if (isUnavailable(ex)) {
			return new MemoryUnavailableException("The JDBC run store cannot reach its database ("
					+ rootCause(ex).getClass().getSimpleName() + "); the operation did not complete. It reconnects by "
					+ "itself once the database is back", ex);
		}
		if (isMissingTable(ex)) {
			return new MemoryException("The tables of the JDBC run store (" + this.tablePrefix + "runs, "
					+ this.tablePrefix + "run_events) do not exist: create the schema (set "
					+ "agent.memory.jdbc.initialize-schema=always, or run the script "
					+ "dev/agcore/run/jdbc/schema-<platform>.sql through your migrations)", ex);
		}
		return new MemoryException("The JDBC run store failed: " + ex.getMessage(), ex);
	}

	static boolean isUnavailable(Throwable ex) {
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

}
