package dev.agcore.memory;

import java.util.Objects;

import dev.agcore.json.AgentJson;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Who owns each session, kept in a {@link KeyValueStore} under the namespace
 * {@code session-owner:<sessionId>} (one item, so no capacity per namespace can evict
 * it), in every backend the store has. The first principal to {@link #claim claim} a
 * session owns it: the claim is the store's atomic
 * {@link KeyValueStore#putIfAbsent put-if-absent}, so of two instances claiming the
 * same new session at once exactly one wins. {@link AgentSessions#delete} removes the
 * owner with the session.
 * <p>
 * The owner is kept as long as the store keeps items: with a time-to-live on the store
 * ({@code agent.memory.long-term.ttl}), it must be at least the conversations'
 * ({@code agent.memory.session-ttl}), which the Spring Boot auto-configuration checks at
 * startup, or an idle session could lose its owner before its conversation. Each claim
 * of an owned session rewrites it, renewing it. In memory, an
 * {@link InMemoryKeyValueStore} sharing its {@link InMemoryBytes} cap with the
 * {@link InMemoryConversationStore} evicts an owner only with its whole session.
 */
public final class SessionOwners {

	/** Prefix of the store namespace of each session's owner. */
	public static final String NAMESPACE_PREFIX = "session-owner:";

	static final String KEY = "owner";

	private static final int MAX_CLAIMS = 3;

	private final KeyValueStore store;

	private SessionOwners(KeyValueStore store) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
	}

	public static SessionOwners of(KeyValueStore store) {
		return new SessionOwners(store);
	}

	/**
	 * Return the owner of a session.
	 * @param sessionId the session
	 * @return the owner's name; empty for a session nobody owns
	 */
	public Mono<String> owner(String sessionId) {
		return Mono.defer(() -> this.store.get(namespace(sessionId), KEY))
			.filter(JsonNode::isString)
			.map(JsonNode::asString);
	}

	/**
	 * Claim a session for a principal, unless someone owns it already: the first claim
	 * wins.
	 * @param sessionId the session
	 * @param owner the principal's name
	 * @return the session's owner: {@code owner} if it won or owned the session already,
	 * else the one who did
	 */
	public Mono<String> claim(String sessionId, String owner) {
		KeyValueNamespace.requireText(owner, "owner");
		return claim(sessionId, owner, 1);
	}

	private Mono<String> claim(String sessionId, String owner, int attempt) {
		JsonNode value = AgentJson.mapper().getNodeFactory().stringNode(owner);
		return Mono.defer(() -> this.store.putIfAbsent(namespace(sessionId), KEY, value,
				AgentJson.mapper().createObjectNode()))
			.flatMap((won) -> won ? Mono.just(owner) : owner(sessionId).flatMap((existing) -> {
				if (!existing.equals(owner)) {
					return Mono.just(existing);
				}
				// the owner's own session: written again, so a time-to-live counts from now
				return this.store.put(namespace(sessionId), KEY, value).thenReturn(owner);
			})
				// deleted between the claim and the read: claim again
				.switchIfEmpty(Mono.defer(() -> (attempt < MAX_CLAIMS) ? claim(sessionId, owner, attempt + 1)
						: Mono.error(new MemoryException("Could not claim session '" + sessionId
								+ "': it was deleted at each of " + MAX_CLAIMS + " attempts")))));
	}

	/**
	 * Forget a session's owner.
	 * @param sessionId the session
	 * @return how many items were removed
	 */
	public Mono<Long> remove(String sessionId) {
		return Mono.defer(() -> this.store.clear(namespace(sessionId)));
	}

	private static String namespace(String sessionId) {
		return NAMESPACE_PREFIX + KeyValueNamespace.requireText(sessionId, "sessionId");
	}

}
