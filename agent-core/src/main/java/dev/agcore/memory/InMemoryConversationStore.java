package dev.agcore.memory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Keeps conversations in a map in this JVM. Each session holds an immutable snapshot that
 * is replaced on append, so readers never copy and never see half a turn. Lost on
 * restart; use a persistent store in production.
 * <p>
 * Memory is bounded. At most {@link #DEFAULT_MAX_SESSIONS 10,000} sessions are kept by
 * default: a new session beyond that evicts the least recently used one (loading or
 * storing a session uses it). A session waiting for approval is passed over, so a
 * pending turn is not silently lost; only when every other session waits too is the
 * least recently used one evicted with its pending turn. Each session keeps at most
 * {@link #DEFAULT_MAX_MESSAGES_PER_SESSION 1,000} messages: beyond that its oldest are
 * dropped, and the kept history never starts with a tool result, so a tool call is never
 * kept without its result nor a result without its call.
 */
public final class InMemoryConversationStore implements ConversationStore {

	/** Sessions kept by default. */
	public static final int DEFAULT_MAX_SESSIONS = 10_000;

	/** Messages kept per session by default. */
	public static final int DEFAULT_MAX_MESSAGES_PER_SESSION = 1_000;

	private final int maxSessions;

	private final int maxMessagesPerSession;

	// in access order, eldest first: the least recently used session; guarded by itself
	private final Map<String, List<Message>> sessions = new LinkedHashMap<>(16, 0.75f, true);

	private final Map<String, PendingTurn> pending = new ConcurrentHashMap<>();

	/** Sessions whose pending turn is being resumed; guarded by the lock on {@link #sessions}. */
	private final Set<String> resuming = new HashSet<>();

	/**
	 * Create a store with the default bounds.
	 */
	public InMemoryConversationStore() {
		this(DEFAULT_MAX_SESSIONS, DEFAULT_MAX_MESSAGES_PER_SESSION);
	}

	/**
	 * Create a store with the given bounds.
	 * @param maxSessions the most sessions kept; at least 1
	 * @param maxMessagesPerSession the most messages kept per session; at least 1
	 */
	public InMemoryConversationStore(int maxSessions, int maxMessagesPerSession) {
		if (maxSessions < 1) {
			throw new IllegalArgumentException("'maxSessions' must be at least 1 (was " + maxSessions + ")");
		}
		if (maxMessagesPerSession < 1) {
			throw new IllegalArgumentException(
					"'maxMessagesPerSession' must be at least 1 (was " + maxMessagesPerSession + ")");
		}
		this.maxSessions = maxSessions;
		this.maxMessagesPerSession = maxMessagesPerSession;
	}

	/**
	 * Return the most sessions this store keeps.
	 * @return the bound
	 */
	public int maxSessions() {
		return this.maxSessions;
	}

	/**
	 * Return the most messages this store keeps per session.
	 * @return the bound
	 */
	public int maxMessagesPerSession() {
		return this.maxMessagesPerSession;
	}

	@Override
	public Mono<List<Message>> load(String sessionId) {
		return Mono.fromSupplier(() -> {
			synchronized (this.sessions) {
				return this.sessions.getOrDefault(sessionId, List.of());
			}
		});
	}

	@Override
	public Mono<Void> append(String sessionId, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			List<Message> added = List.copyOf(messages);
			update(sessionId, (existing) -> concat(existing, added));
		});
	}

	@Override
	public Mono<Void> replace(String sessionId, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			List<Message> replacement = List.copyOf(messages);
			update(sessionId, (existing) -> replacement);
		});
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return Mono.fromSupplier(() -> this.pending.get(sessionId));
	}

	@Override
	public Mono<Boolean> claimPending(String sessionId, PendingTurn expected) {
		return Mono.fromSupplier(() -> {
			synchronized (this.sessions) {
				return expected.equals(this.pending.get(sessionId)) && this.resuming.add(sessionId);
			}
		});
	}

	@Override
	public Mono<Boolean> progressPending(String sessionId, PendingTurn claimed, PendingTurn progressed) {
		return Mono.fromSupplier(() -> {
			synchronized (this.sessions) {
				if (!claimed.equals(this.pending.get(sessionId)) || !this.resuming.contains(sessionId)) {
					return false;
				}
				// the session stays in 'resuming': the claim carries over to the progressed turn
				this.pending.put(sessionId, progressed);
				return true;
			}
		});
	}

	@Override
	public Mono<Void> releasePending(String sessionId, PendingTurn claimed) {
		return Mono.fromRunnable(() -> {
			synchronized (this.sessions) {
				if (claimed.equals(this.pending.get(sessionId))) {
					this.resuming.remove(sessionId);
				}
			}
		});
	}

	@Override
	public Mono<Void> savePending(String sessionId, PendingTurn turn) {
		// the session is used, so counted and not the next to be evicted
		return Mono.fromRunnable(() -> update(sessionId, (existing) -> {
			this.pending.put(sessionId, turn);
			this.resuming.remove(sessionId);
			return existing;
		}));
	}

	@Override
	public Mono<Void> completePending(String sessionId, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			List<Message> added = List.copyOf(messages);
			update(sessionId, (existing) -> {
				// removing the pending turn under the lock keeps the two changes atomic
				removePending(sessionId);
				return concat(existing, added);
			});
		});
	}

	@Override
	public Mono<Void> clear(String sessionId) {
		return Mono.fromRunnable(() -> {
			synchronized (this.sessions) {
				this.sessions.remove(sessionId);
				removePending(sessionId);
			}
		});
	}

	private void update(String sessionId, UnaryOperator<List<Message>> change) {
		synchronized (this.sessions) {
			List<Message> existing = this.sessions.getOrDefault(sessionId, List.of());
			this.sessions.put(sessionId, bounded(change.apply(existing)));
			while (this.sessions.size() > this.maxSessions) {
				String evicted = leastRecentlyUsedExcept(sessionId);
				this.sessions.remove(evicted);
				removePending(evicted);
			}
		}
	}

	private void removePending(String sessionId) {
		this.pending.remove(sessionId);
		this.resuming.remove(sessionId);
	}

	// the eldest session that waits for no approval, else the eldest; never the one just used
	private String leastRecentlyUsedExcept(String sessionId) {
		@Nullable String eldest = null;
		for (String candidate : this.sessions.keySet()) {
			if (candidate.equals(sessionId)) {
				continue;
			}
			if (!this.pending.containsKey(candidate)) {
				return candidate;
			}
			if (eldest == null) {
				eldest = candidate;
			}
		}
		if (eldest == null) {
			throw new IllegalStateException("no session to evict");
		}
		return eldest;
	}

	// drops the oldest messages, then any tool results left at the start without their call
	private List<Message> bounded(List<Message> messages) {
		if (messages.size() <= this.maxMessagesPerSession) {
			return messages;
		}
		int start = messages.size() - this.maxMessagesPerSession;
		while (start < messages.size() && messages.get(start) instanceof ToolResultMessage) {
			start++;
		}
		return List.copyOf(messages.subList(start, messages.size()));
	}

	private static List<Message> concat(List<Message> existing, List<Message> added) {
		if (existing.isEmpty()) {
			return added;
		}
		List<Message> all = new ArrayList<>(existing.size() + added.size());
		all.addAll(existing);
		all.addAll(added);
		return List.copyOf(all);
	}

}
