package dev.agcore.memory;

import dev.agcore.AgentException;

/**
 * A store could not do what was asked.
 *
 * @since 0.1.0
 */
public class MemoryException extends AgentException {

	public MemoryException(String message) {
		super(message);
	}

	public MemoryException(String message, Throwable cause) {
		super(message, cause);
	}

}
