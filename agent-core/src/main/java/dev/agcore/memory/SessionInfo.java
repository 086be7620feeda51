package dev.agcore.memory;

import java.time.Instant;
import java.util.Objects;

/**
 * A session listed in a user's {@link SessionDirectory}.
 *
 * @param sessionId the session
 * @param agentName the agent of its last turn
 * @param createdAt when its first turn was stored
 * @param updatedAt when its last turn was stored
 * @since 0.1.0
 */
public record SessionInfo(String sessionId, String agentName, Instant createdAt, Instant updatedAt) {

	public SessionInfo {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(agentName, "'agentName' must not be null");
		Objects.requireNonNull(createdAt, "'createdAt' must not be null");
		Objects.requireNonNull(updatedAt, "'updatedAt' must not be null");
	}

}
