package dev.agcore.autoconfigure.actuate;

import java.time.Instant;

import dev.agcore.mcp.McpConnectionState;
import dev.agcore.mcp.McpServerStatus;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

class McpServerHealthIndicatorTests {

	@Test
	void aConnectedServerIsUpWithItsToolsAndSince() {
		Health health = health(McpConnectionState.CONNECTED, true, null, Instant.parse("2026-01-01T00:00:00Z"));
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("state", "CONNECTED")
			.containsEntry("tools", 3)
			.containsEntry("required", true)
			.containsEntry("connectedSince", "2026-01-01T00:00:00Z")
			.doesNotContainKey("lastError");
	}

	@Test
	void aRequiredServerThatIsNotConnectedIsDownWithItsLastError() {
		for (McpConnectionState state : new McpConnectionState[] { McpConnectionState.FAILED,
				McpConnectionState.RECONNECTING, McpConnectionState.CLOSED }) {
			Health health = health(state, true, "connection refused", null);
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails()).containsEntry("lastError", "connection refused");
		}
	}

	@Test
	void anOptionalServerThatIsNotConnectedAndAServerStillConnectingAreUnknown() {
		assertThat(health(McpConnectionState.RECONNECTING, false, "connection refused", null).getStatus())
			.isEqualTo(Status.UNKNOWN);
		assertThat(health(McpConnectionState.FAILED, false, "connection refused", null).getStatus())
			.isEqualTo(Status.UNKNOWN);
		assertThat(health(McpConnectionState.CONNECTING, true, null, null).getStatus()).isEqualTo(Status.UNKNOWN);
	}

	private static Health health(McpConnectionState state, boolean required, String lastError, Instant since) {
		McpServerStatus status = new McpServerStatus("files", "stdio", required, state, 3, lastError, since);
		return new McpServerHealthIndicator(() -> status).health();
	}

}
