package dev.agcore.memory;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Lists and deletes sessions: what a user-facing application needs to show a user their
 * conversations and let them forget one. Deleting a session removes its conversation, its
 * paused turn, its session memory and, given the user, its entry in the user's list.
 * Long-term memory ({@code store:} namespaces) is not touched: it outlives sessions. The
 * session's {@linkplain SessionOwners owner} goes last, so a delete that fails halfway can
 * be repeated by its owner.
 * <p>
 * A session whose agents keep {@link SessionMode#ISOLATED isolated} conversations is
 * listed once, by its session id (with the agent of its last turn); deleting it also
 * removes the conversation of each agent it is given, shared or isolated, so a mode
 * changed since leaves nothing behind.
 */
public final class AgentSessions {

	private final ConversationStore conversations;

	private final KeyValueStore store;

	private final SessionDirectory directory;

	private final SessionOwners owners;

	private final List<String> agentNames;

	public AgentSessions(ConversationStore conversations, KeyValueStore store) {
		this(conversations, store, List.of());
	}

	/**
	 * Create sessions over the stores of agents some of which may keep
	 * {@link SessionMode#ISOLATED isolated} conversations.
	 * @param conversations the store of all conversations
	 * @param store the key-value store of session memory and users' lists
	 * @param agentNames the agents whose own conversation of a session a delete removes
	 */
	public AgentSessions(ConversationStore conversations, KeyValueStore store, Collection<String> agentNames) {
		this.conversations = Objects.requireNonNull(conversations, "'conversations' must not be null");
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		this.directory = SessionDirectory.of(store);
		this.owners = SessionOwners.of(store);
		this.agentNames = List.copyOf(agentNames);
	}

	/**
	 * List a user's sessions, the one with the latest turn first.
	 * @param userId the user
	 * @param offset how many sessions to skip
	 * @param limit the most sessions returned, 1 to {@link SessionDirectory#MAX_PAGE_SIZE}
	 * @return the sessions
	 */
	public Mono<List<SessionInfo>> list(String userId, int offset, int limit) {
		return this.directory.list(userId, offset, limit);
	}

	/**
	 * Return who owns the sessions, in the same store.
	 * @return the owners
	 */
	public SessionOwners owners() {
		return this.owners;
	}

	/**
	 * Delete a session; deleting an unknown session does nothing.
	 * @param sessionId the session
	 * @param userId the user whose list names it, or {@code null} to leave the lists alone
	 * @return completes when deleted
	 */
	public Mono<Void> delete(String sessionId, @Nullable String userId) {
		KeyValueNamespace.requireText(sessionId, "sessionId");
		// the list entry goes last: a delete that fails halfway can be found and repeated
		Mono<Void> unlisted = (userId != null) ? this.directory.remove(userId, sessionId).then() : Mono.empty();
		return Mono.defer(() -> this.conversations.clear(sessionId))
			.thenMany(Flux.fromIterable(this.agentNames)
				.concatMap((agent) -> this.conversations.clear(SessionMode.isolatedId(sessionId, agent))))
			.then()
			.then(Mono.defer(() -> this.store.clear(SessionMemory.NAMESPACE_PREFIX + sessionId)))
			.then(Mono.defer(() -> this.store.clear(LongTermStore.NAMESPACE_PREFIX + "session:" + sessionId)))
			.then(unlisted)
			.then(Mono.defer(() -> this.owners.remove(sessionId)))
			.then();
	}

}
