package dev.agcore.memory;

import dev.agcore.json.AgentJson;
import reactor.core.publisher.Mono;
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

	/**
	 * Remove every value of this session's memory; other sessions keep theirs.
	 * @return how many values were removed
	 */
	public long clear() {
		Long removed = store().clear(namespace()).block(TIMEOUT);
		return (removed != null) ? removed : 0;
	}

	/**
	 * Render this session's memory as the {@code <session-context>} block the agent
	 * appends to its system prompt: {@code <session-context>}, one {@code key: value}
	 * line per item in the order they were created, {@code </session-context>}. Bounded
	 * by {@link SessionContextBlock}.
	 * @return the block; empty text when the memory is empty
	 */
	public String snapshot() {
		String block = renderAsync().block(TIMEOUT);
		return (block != null) ? block : "";
	}

	/**
	 * Render the block without blocking, for middleware.
	 * @return the block; empty text when the memory is empty
	 */
	public Mono<String> renderAsync() {
		return SessionContextBlock.read(store(), this.sessionId);
	}

}
