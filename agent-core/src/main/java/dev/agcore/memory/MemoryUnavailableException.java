package dev.agcore.memory;

/**
 * A store could not be reached: its database or server is down or unreachable. Nothing
 * was written. Retryable once the store is back; stores reconnect by themselves.
 *
 * @since 0.1.0
 */
public class MemoryUnavailableException extends MemoryException {

	public MemoryUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
