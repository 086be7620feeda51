package dev.agcore.middleware;

import dev.agcore.AgentException;
import org.jspecify.annotations.Nullable;

/**
 * A middleware failed or misbehaved; the turn is stopped.
 */
public class MiddlewareException extends AgentException {

	public MiddlewareException(String message) {
		super(message);
	}

	public MiddlewareException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
