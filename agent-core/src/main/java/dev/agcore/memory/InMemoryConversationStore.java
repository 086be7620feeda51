package dev.agcore.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.message.Message;
import reactor.core.publisher.Mono;

/**
 * Keeps conversations in a map in this JVM. Each session holds an immutable snapshot that
 * is replaced on append, so readers never copy and never see half a turn. Lost on
 * restart; use a persistent store in production.
 */
public final class InMemoryConversationStore implements ConversationStore {

	private final Map<String, List<Message>> sessions = new ConcurrentHashMap<>();

	private final Map<String, PendingTurn> pending = new ConcurrentHashMap<>();

	@Override
	public Mono<List<Message>> load(String sessionId) {
		return Mono.fromSupplier(() -> this.sessions.getOrDefault(sessionId, List.of()));
	}

	@Override
	public Mono<Void> append(String sessionId, List<Message> messages) {
		return Mono.fromRunnable(() -> this.sessions.merge(sessionId, List.copyOf(messages),
				InMemoryConversationStore::concat));
	}

	@Override
	public Mono<Void> replace(String sessionId, List<Message> messages) {
		return Mono.fromRunnable(() -> this.sessions.put(sessionId, List.copyOf(messages)));
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return Mono.fromSupplier(() -> this.pending.get(sessionId));
	}

	@Override
	public Mono<Boolean> claimPending(String sessionId, PendingTurn expected) {
		return Mono.fromSupplier(() -> this.pending.remove(sessionId, expected));
	}

	@Override
	public Mono<Void> savePending(String sessionId, PendingTurn turn) {
		return Mono.fromRunnable(() -> this.pending.put(sessionId, turn));
	}

	@Override
	public Mono<Void> completePending(String sessionId, List<Message> messages) {
		return Mono.fromRunnable(() -> this.sessions.compute(sessionId, (id, existing) -> {
			// removing the pending turn inside compute keeps the two changes atomic for this session
			this.pending.remove(sessionId);
			return (existing != null) ? concat(existing, List.copyOf(messages)) : List.copyOf(messages);
		}));
	}

	@Override
	public Mono<Void> clear(String sessionId) {
		return Mono.fromRunnable(() -> {
			this.sessions.remove(sessionId);
			this.pending.remove(sessionId);
		});
	}

	private static List<Message> concat(List<Message> existing, List<Message> added) {
		List<Message> all = new ArrayList<>(existing.size() + added.size());
		all.addAll(existing);
		all.addAll(added);
		return List.copyOf(all);
	}

}
