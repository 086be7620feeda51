package dev.agcore.mcp;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a connection to an MCP server looks like now.
 *
 * @param name the server's configured name
 * @param transport its transport, {@code stdio}, {@code streamable-http} or {@code sse}
 * @param required whether the application needs it to start
 * @param state where the connection stands
 * @param toolCount how many tools the server offers (the last known list while
 * reconnecting)
 * @param lastError why the last attempt failed or the connection was lost, or
 * {@code null}; never holds header values or environment variables
 * @param connectedSince when the current connection was made, or {@code null} when not
 * connected
 * @since 0.1.0
 */
public record McpServerStatus(String name, String transport, boolean required, McpConnectionState state,
		int toolCount, @Nullable String lastError, @Nullable Instant connectedSince) {

	public McpServerStatus {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(transport, "'transport' must not be null");
		Objects.requireNonNull(state, "'state' must not be null");
	}

	McpServerStatus with(McpConnectionState state, int toolCount, @Nullable String lastError,
			@Nullable Instant connectedSince) {
		return new McpServerStatus(this.name, this.transport, this.required, state, toolCount, lastError,
				connectedSince);
	}

}
