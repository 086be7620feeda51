package dev.agcore.memory;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import dev.agcore.json.AgentJson;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sessions of each user, kept in a {@link KeyValueStore} under the namespace
 * {@code user-sessions:<userId>}: one item per session, keyed by session id, with the
 * agent name as metadata; its creation and update times are those of the session's first
 * and last turn. The agent records a session with one write per turn, only for requests
 * that name a user.
 */
public final class SessionDirectory {

	/** Prefix of the store namespace of each user's sessions. */
	public static final String NAMESPACE_PREFIX = "user-sessions:";

	/** The most sessions one page lists. */
	public static final int MAX_PAGE_SIZE = 1_000;

	private static final Comparator<MemoryItem> NEWEST_FIRST = Comparator.comparing(MemoryItem::updatedAt)
		.reversed()
		.thenComparing(MemoryItem::key);

	private final KeyValueStore store;

	private SessionDirectory(KeyValueStore store) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
	}

	public static SessionDirectory of(KeyValueStore store) {
		return new SessionDirectory(store);
	}

	/**
	 * Record that a user's session had a turn now.
	 * @param userId the user
	 * @param sessionId the session
	 * @param agentName the agent of the turn
	 * @return completes when recorded
	 */
	public Mono<Void> record(String userId, String sessionId, String agentName) {
		ObjectNode metadata = AgentJson.mapper().createObjectNode().put("agent", agentName);
		JsonNode value = AgentJson.mapper().getNodeFactory().stringNode(agentName);
		return Mono.defer(() -> this.store.put(namespace(userId), sessionId, value, metadata));
	}

	/**
	 * List a user's sessions, the one with the latest turn first. Reads at most
	 * {@link ItemQuery#MAX_LIMIT} sessions of a user.
	 * @param userId the user
	 * @param offset how many sessions to skip
	 * @param limit the most sessions returned, 1 to {@link #MAX_PAGE_SIZE}
	 * @return the sessions; empty for an unknown user
	 */
	public Mono<List<SessionInfo>> list(String userId, int offset, int limit) {
		if (offset < 0) {
			return Mono.error(new IllegalArgumentException("'offset' must not be negative, was " + offset));
		}
		if (limit < 1 || limit > MAX_PAGE_SIZE) {
			return Mono.error(new IllegalArgumentException(
					"'limit' must be between 1 and " + MAX_PAGE_SIZE + ", was " + limit));
		}
		return Mono.defer(() -> this.store.list(namespace(userId), ItemQuery.all()))
			.map((items) -> items.stream()
				.sorted(NEWEST_FIRST)
				.skip(offset)
				.limit(limit)
				.map(SessionDirectory::info)
				.toList());
	}

	/**
	 * Remove a session from a user's list.
	 * @param userId the user
	 * @param sessionId the session
	 * @return whether it was listed
	 */
	public Mono<Boolean> remove(String userId, String sessionId) {
		return Mono.defer(() -> this.store.delete(namespace(userId), sessionId));
	}

	private static SessionInfo info(MemoryItem item) {
		JsonNode agent = item.metadata().get("agent");
		String agentName = (agent != null && agent.isString()) ? agent.asString() : "";
		return new SessionInfo(item.key(), agentName, item.createdAt(), item.updatedAt());
	}

	private static String namespace(String userId) {
		return NAMESPACE_PREFIX + KeyValueNamespace.requireText(userId, "userId");
	}

}
