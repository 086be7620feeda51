package dev.agcore.autoconfigure.actuate;

import java.util.function.Supplier;

import dev.agcore.mcp.McpConnectionState;
import dev.agcore.mcp.McpServerStatus;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The health of one MCP server, from its connection's status, without a request to the
 * server:
 * <ul>
 * <li>UP when connected;</li>
 * <li>DOWN when a required server is not connected (its first attempts failed, it is
 * reconnecting, or it was closed);</li>
 * <li>UNKNOWN while a server connects for the first time, and when an optional server is
 * not connected: it does not make the application unhealthy, as the application runs
 * without it.</li>
 * </ul>
 * Details: transport, required, state, tool count, the last error and when the current
 * connection was made. Never header values or environment variables.
 */
final class McpServerHealthIndicator implements HealthIndicator {

	private final Supplier<McpServerStatus> status;

	McpServerHealthIndicator(Supplier<McpServerStatus> status) {
		this.status = status;
	}

	@Override
	public Health health() {
		McpServerStatus status = this.status.get();
		Health.Builder health = builder(status).withDetail("transport", status.transport())
			.withDetail("required", status.required())
			.withDetail("state", status.state().name())
			.withDetail("tools", status.toolCount());
		if (status.lastError() != null) {
			health.withDetail("lastError", status.lastError());
		}
		if (status.connectedSince() != null) {
			health.withDetail("connectedSince", status.connectedSince().toString());
		}
		return health.build();
	}

	private static Health.Builder builder(McpServerStatus status) {
		McpConnectionState state = status.state();
		if (state == McpConnectionState.CONNECTED) {
			return Health.up();
		}
		if (state == McpConnectionState.NEW || state == McpConnectionState.CONNECTING || !status.required()) {
			return Health.unknown();
		}
		return Health.down();
	}

}
