package dev.agcore.runtime;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One user turn sent to an agent.
 *
 * @param sessionId the conversation this turn belongs to
 * @param message what the user said
 * @param state caller state passed to tools through
 * {@link dev.agcore.tool.ToolContext#state()}; never sent to the model
 * @param userId the user the session belongs to, or {@code null}: when set, the session is
 * listed among the user's sessions and user-scoped memory tools can run
 */
public record AgentRequest(String sessionId, String message, Map<String, Object> state, @Nullable String userId) {

	/**
	 * The longest session id: ids are keys in stores and parts of URLs, and one that can
	 * be written must be readable back through {@code GET .../sessions/{id}/messages}.
	 */
	public static final int MAX_SESSION_ID_LENGTH = 256;

	/** The longest user id, for the same reasons. */
	public static final int MAX_USER_ID_LENGTH = 256;

	public AgentRequest {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(message, "'message' must not be null");
		if (sessionId.isBlank()) {
			throw new IllegalArgumentException("'sessionId' must not be blank");
		}
		if (sessionId.length() > MAX_SESSION_ID_LENGTH) {
			throw new IllegalArgumentException("'sessionId' must be at most " + MAX_SESSION_ID_LENGTH
					+ " characters, was " + sessionId.length());
		}
		if (userId != null && userId.isBlank()) {
			throw new IllegalArgumentException("'userId' must not be blank");
		}
		if (userId != null && userId.length() > MAX_USER_ID_LENGTH) {
			throw new IllegalArgumentException(
					"'userId' must be at most " + MAX_USER_ID_LENGTH + " characters, was " + userId.length());
		}
		state = Map.copyOf(state);
	}

	/**
	 * A turn without a user id.
	 * @param sessionId the session
	 * @param message what the user said
	 * @param state caller state for the tools
	 */
	public AgentRequest(String sessionId, String message, Map<String, Object> state) {
		this(sessionId, message, state, null);
	}

	public static AgentRequest of(String sessionId, String message) {
		return new AgentRequest(sessionId, message, Map.of(), null);
	}

	/**
	 * Return this request on behalf of a user.
	 * @param userId the user, or {@code null} for none
	 * @return the request
	 */
	public AgentRequest withUserId(@Nullable String userId) {
		return new AgentRequest(this.sessionId, this.message, this.state, userId);
	}

	/**
	 * Return this request with caller state for the tools.
	 * @param state the state
	 * @return the request
	 */
	public AgentRequest withState(Map<String, Object> state) {
		return new AgentRequest(this.sessionId, this.message, state, this.userId);
	}

}
