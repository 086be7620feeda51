package dev.agcore.memory;

import java.util.List;

import dev.agcore.message.Message;
import reactor.core.publisher.Mono;

/**
 * The conversations of one agent in {@link SessionMode#ISOLATED isolated} mode: every
 * session id is mapped to the agent's own conversation id before the store sees it, so
 * the agent's runtime (turns, paused turns, history) needs no other change.
 */
final class IsolatedConversationStore implements ConversationStore {

	private final ConversationStore store;

	private final String agentName;

	IsolatedConversationStore(ConversationStore store, String agentName) {
		this.store = store;
		this.agentName = agentName;
	}

	private String id(String sessionId) {
		return SessionMode.isolatedId(sessionId, this.agentName);
	}

	// an in-memory store keeps the agent's conversation with its session, to evict them together
	private Mono<Void> bound(String sessionId) {
		if (this.store instanceof InMemoryConversationStore inMemory) {
			return Mono.fromRunnable(() -> inMemory.bind(id(sessionId), sessionId));
		}
		return Mono.empty();
	}

	@Override
	public Mono<Conversation> load(String sessionId) {
		return this.store.load(id(sessionId));
	}

	@Override
	public Mono<Conversation> loadRecent(String sessionId, int maxMessages) {
		return this.store.loadRecent(id(sessionId), maxMessages);
	}

	@Override
	public Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages) {
		return bound(sessionId).then(this.store.append(id(sessionId), expectedVersion, messages));
	}

	@Override
	public Mono<Void> replace(String sessionId, long expectedVersion, List<Message> messages) {
		return bound(sessionId).then(this.store.replace(id(sessionId), expectedVersion, messages));
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return this.store.loadPending(id(sessionId));
	}

	@Override
	public Mono<Void> savePending(String sessionId, long expectedVersion, PendingTurn pending) {
		return bound(sessionId).then(this.store.savePending(id(sessionId), expectedVersion, pending));
	}

	@Override
	public Mono<Boolean> claimPending(String sessionId, PendingTurn expected) {
		return this.store.claimPending(id(sessionId), expected);
	}

	@Override
	public Mono<Boolean> progressPending(String sessionId, PendingTurn claimed, PendingTurn progressed) {
		return this.store.progressPending(id(sessionId), claimed, progressed);
	}

	@Override
	public Mono<Void> releasePending(String sessionId, PendingTurn claimed) {
		return this.store.releasePending(id(sessionId), claimed);
	}

	@Override
	public Mono<Void> completePending(String sessionId, long expectedVersion, List<Message> messages) {
		return bound(sessionId).then(this.store.completePending(id(sessionId), expectedVersion, messages));
	}

	@Override
	public Mono<Void> clear(String sessionId) {
		return this.store.clear(id(sessionId));
	}

	@Override
	public String toString() {
		return this.store + " (isolated for agent '" + this.agentName + "')";
	}

}
