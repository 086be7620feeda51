package dev.agcore.mcp;

import dev.agcore.AgentException;

/**
 * A request to an MCP server failed: the server is not connected, did not answer in
 * time, answered with an error, or its connection was closed. The message names the
 * server.
 *
 * @since 0.1.0
 */
public class McpException extends AgentException {

	public McpException(String message) {
		super(message);
	}

	public McpException(String message, Throwable cause) {
		super(message, cause);
	}

}
