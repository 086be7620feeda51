package dev.agcore.mcp;

/**
 * Where a connection to an MCP server stands.
 *
 * @since 0.1.0
 */
public enum McpConnectionState {

	/** Not started yet. */
	NEW,

	/** The first attempt to connect is running. */
	CONNECTING,

	/** Connected and initialised; its tools are listed. */
	CONNECTED,

	/**
	 * The connection was lost, or an attempt to get it back failed; retrying with
	 * backoff. Its last known tools stay offered: calls wait for the connection.
	 */
	RECONNECTING,

	/** Never connected: the attempts so far failed; retrying with backoff. */
	FAILED,

	/** Closed for good. */
	CLOSED

}
