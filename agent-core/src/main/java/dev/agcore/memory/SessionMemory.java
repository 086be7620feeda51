package dev.agcore.memory;

import dev.agcore.json.AgentJson;
import tools.jackson.databind.json.JsonMapper;

/**
 * The key-value memory of one session, for tools: what a tool keeps here is visible to
 * later calls in the same session, and to no other session. Stored in the agent's
 * {@link KeyValueStore} under the namespace {@code session:<sessionId>}. Inject it into
 * a tool by declaring a parameter of this type.
 */
public final class SessionMemory extends KeyValueNamespace {

	/** Prefix of the store namespace of each session's memory. */
	public static final String NAMESPACE_PREFIX = "session:";

	private final String sessionId;

	private SessionMemory(KeyValueStore store, String sessionId, JsonMapper mapper) {
		super(store, NAMESPACE_PREFIX + requireText(sessionId, "sessionId"), mapper);
		this.sessionId = sessionId;
	}

	/**
	 * Return the memory of a session.
	 * @param store the store holding it
	 * @param sessionId the session
	 * @return the memory
	 */
	public static SessionMemory of(KeyValueStore store, String sessionId) {
		return of(store, sessionId, AgentJson.mapper());
	}

	/**
	 * Return the memory of a session, converting values with a given mapper.
	 * @param store the store holding it
	 * @param sessionId the session
	 * @param mapper the mapper
	 * @return the memory
	 */
	public static SessionMemory of(KeyValueStore store, String sessionId, JsonMapper mapper) {
		return new SessionMemory(store, sessionId, mapper);
	}

	public String sessionId() {
		return this.sessionId;
	}

}
