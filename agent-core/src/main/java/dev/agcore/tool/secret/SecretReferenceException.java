package dev.agcore.tool.secret;

import dev.agcore.tool.ToolException;

/**
 * The secret references of a tool call cannot be resolved: a placeholder sits in a
 * parameter that may not carry one, or names an unknown secret. The message names the
 * parameter and the secret, never a value.
 */
public class SecretReferenceException extends ToolException {

	public SecretReferenceException(String message) {
		super(message);
	}

}
