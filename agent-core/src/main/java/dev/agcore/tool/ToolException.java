package dev.agcore.tool;

import dev.agcore.AgentException;
import org.jspecify.annotations.Nullable;

/**
 * A tool could not be declared or run.
 */
public class ToolException extends AgentException {

	public ToolException(String message) {
		super(message);
	}

	public ToolException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
