package dev.agcore.workflow.jdbc;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.workflow.CheckpointFormatException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Turns database errors of the checkpoint store into memory errors, as the JDBC memory
 * stores do: an unreachable database becomes a {@link MemoryUnavailableException}, a
 * missing table an error that says how to create it; neither carries the connection's URL
 * or credentials.
 */
final class JdbcCheckpointErrors {

	private JdbcCheckpointErrors() {
	}

	static RuntimeException translate(String tablePrefix, RuntimeException ex) {
		if (ex instanceof MemoryException || ex instanceof CheckpointFormatException
				|| ex instanceof IllegalArgumentException) {
			return ex;
		}
		if (isUnavailable(ex)) {
			return new MemoryUnavailableException("The JDBC checkpoint store cannot reach its database ("
					+ rootCause(ex).getClass().getSimpleName() + "); the operation did not complete. It reconnects by "
					+ "itself once the database is back", ex);
		}
		if (hasState(ex, "42P01", "42S02", "42S04")) {
			return new MemoryException("The tables of the JDBC checkpoint store (" + tablePrefix + "workflow_checkpoint, "
					+ tablePrefix + "workflow_checkpoint_entry) do not exist: create the schema (set "
					+ "agent.memory.jdbc.initialize-schema=always, or run the script "
					+ "dev/agcore/workflow/jdbc/schema-<platform>.sql through your migrations)", ex);
		}
		return new MemoryException("The JDBC checkpoint store failed: " + ex.getMessage(), ex);
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
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	// 42P01: PostgreSQL's undefined table; 42S02: H2, MySQL and MariaDB; 42S04: H2 on an empty database
	private static boolean hasState(Throwable ex, String... states) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql) {
				for (String state : states) {
					if (state.equals(sql.getSQLState())) {
						return true;
					}
				}
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
