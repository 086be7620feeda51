package dev.agcore.memory.redis;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

import dev.agcore.memory.MemoryUnavailableException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;

/**
 * Tells a Redis that cannot be reached (refused or lost connection, command timeout)
 * from other failures, and turns it into a {@link MemoryUnavailableException} naming the
 * store. An error answered by the server (a script error, a key of the wrong type) is not
 * an outage and passes through. Public for the other Redis stores of agent-core (runs,
 * checkpoints); not meant for applications.
 */
public final class RedisErrors {

	private RedisErrors() {
	}

	/**
	 * Turn a failure to reach Redis into a {@link MemoryUnavailableException}; pass others
	 * through.
	 * @param store the store, for the message
	 * @param ex the failure
	 * @return the failure to report
	 */
	public static Throwable translate(String store, Throwable ex) {
		if (ex instanceof MemoryUnavailableException || !isUnavailable(ex)) {
			return ex;
		}
		return new MemoryUnavailableException("The " + store + " could not reach Redis (" + describe(ex)
				+ "); nothing was changed, try again once Redis is back", ex);
	}

	/**
	 * Whether a failure means Redis could not be reached.
	 * @param ex the failure
	 * @return whether it is an outage
	 */
	public static boolean isUnavailable(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof RedisCommandExecutionException) {
				return false;
			}
			if (cause instanceof DataAccessResourceFailureException || cause instanceof QueryTimeoutException
					|| cause instanceof IOException || cause instanceof TimeoutException) {
				return true;
			}
			// Lettuce's connection, timeout and "connection closed" failures
			if (cause instanceof RedisException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	// the innermost message: Lettuce's says what failed (host and port, never a password)
	private static String describe(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = root.getMessage();
		return root.getClass().getSimpleName() + ((message != null) ? ": " + message : "");
	}

}
