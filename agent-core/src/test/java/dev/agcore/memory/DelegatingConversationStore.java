package dev.agcore.memory;

import java.util.List;

import dev.agcore.message.Message;
import reactor.core.publisher.Mono;

/**
 * A store that passes every call to another, for tests that change one of them (answer
 * on another thread, take longer).
 */
public abstract class DelegatingConversationStore implements ConversationStore {

	private final ConversationStore delegate;

	protected DelegatingConversationStore(ConversationStore delegate) {
		this.delegate = delegate;
	}

	@Override
	public Mono<Conversation> load(String sessionId) {
		return this.delegate.load(sessionId);
	}

	@Override
	public Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages) {
		return this.delegate.append(sessionId, expectedVersion, messages);
	}

	@Override
	public Mono<Void> replace(String sessionId, long expectedVersion, List<Message> messages) {
		return this.delegate.replace(sessionId, expectedVersion, messages);
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return this.delegate.loadPending(sessionId);
	}

	@Override
	public Mono<Void> savePending(String sessionId, long expectedVersion, PendingTurn pending) {
		return this.delegate.savePending(sessionId, expectedVersion, pending);
	}

	@Override
	public Mono<Boolean> claimPending(String sessionId, PendingTurn expected) {
		return this.delegate.claimPending(sessionId, expected);
	}

	@Override
	public Mono<Void> releasePending(String sessionId, PendingTurn claimed) {
		return this.delegate.releasePending(sessionId, claimed);
	}

	@Override
	public Mono<Boolean> progressPending(String sessionId, PendingTurn claimed, PendingTurn progressed) {
		return this.delegate.progressPending(sessionId, claimed, progressed);
	}

	@Override
	public Mono<Void> completePending(String sessionId, long expectedVersion, List<Message> messages) {
		return this.delegate.completePending(sessionId, expectedVersion, messages);
	}

	@Override
	public Mono<Void> clear(String sessionId) {
		return this.delegate.clear(sessionId);
	}

}
