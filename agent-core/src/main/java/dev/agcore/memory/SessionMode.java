package dev.agcore.memory;

import java.util.Objects;

/**
 * Whose conversation an agent's turns read and write when several agents take turns in
 * one session (spec §5.10 and §5.11). Either way the session's memory
 * ({@link SessionMemory}, shown in the system prompt as the {@code <session-context>}
 * block) is the session's, shared by every agent of it.
 *
 * @since 0.1.0
 */
public enum SessionMode {

	/**
	 * One conversation per session, whichever agent takes the turn: the next agent sees
	 * everything said before, and is told with a {@code <system-reminder>} that the
	 * previous answer was another agent's. The default.
	 */
	SHARED,

	/**
	 * One conversation per session and agent, kept under
	 * {@link #isolatedId(String, String) a derived id}: an agent sees only its own turns,
	 * and what the session's agents must know of each other travels through the
	 * session's memory.
	 */
	ISOLATED;

	/** The longest conversation id the persistent stores take (their key column). */
	static final int MAX_ID_LENGTH = 256;

	/**
	 * Return the id under which an agent's conversation of a session is stored.
	 * @param sessionId the session
	 * @param agentName the agent
	 * @return the session id itself when shared, else {@link #isolatedId(String, String)}
	 */
	public String conversationId(String sessionId, String agentName) {
		return (this == SHARED) ? sessionId : isolatedId(sessionId, agentName);
	}

	/**
	 * Return the conversations of a store as an agent in this mode reads and writes them.
	 * @param store the store of all conversations
	 * @param agentName the agent
	 * @return the store itself when shared, else a view that keeps each session's
	 * conversation of the agent under its {@link #isolatedId(String, String) own id}
	 */
	public ConversationStore conversations(ConversationStore store, String agentName) {
		Objects.requireNonNull(store, "'store' must not be null");
		Objects.requireNonNull(agentName, "'agentName' must not be null");
		return (this == SHARED) ? store : new IsolatedConversationStore(store, agentName);
	}

	/**
	 * Return the id of an agent's own conversation of a session:
	 * {@code <session-id>#<agent>}. When that is longer than the stores' key (256
	 * characters), the session id is replaced by its SHA-256 (hex), and if still too long,
	 * the whole id by {@code isolated#<sha-256>}.
	 * @param sessionId the session
	 * @param agentName the agent
	 * @return the id
	 */
	public static String isolatedId(String sessionId, String agentName) {
		return DerivedIds.derive(sessionId, "#" + agentName, MAX_ID_LENGTH, "isolated#");
	}

}
