package dev.agcore.tool;

import org.jspecify.annotations.Nullable;

/**
 * A tool is declared wrongly (duplicate name, unsupported parameter). Raised at startup.
 */
public class ToolDefinitionException extends ToolException {

	public ToolDefinitionException(String message) {
		super(message);
	}

	public ToolDefinitionException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
