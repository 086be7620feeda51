package dev.agcore.tool;

import org.jspecify.annotations.Nullable;

/**
 * The model's arguments do not fit the tool's parameters. The message is written for the
 * model: short, naming the parameter, so it can correct the call.
 */
public class ToolArgumentsException extends ToolException {

	public ToolArgumentsException(String message) {
		super(message);
	}

	public ToolArgumentsException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
