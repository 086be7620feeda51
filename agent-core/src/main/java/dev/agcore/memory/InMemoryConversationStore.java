package dev.agcore.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import dev.agcore.message.Message;
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
 * kept without its result nor a result without its call. A session untouched for longer
 * than the session time-to-live, if one is set, is dropped with its pending turn.
 */
public final class InMemoryConversationStore implements ConversationStore {

	/** Sessions kept by default. */
	public static final int DEFAULT_MAX_SESSIONS = 10_000;

	/** Messages kept per session by default. */
	public static final int DEFAULT_MAX_MESSAGES_PER_SESSION = 1_000;

	private final int maxSessions;

	private final int maxMessagesPerSession;

	private final Duration sessionTtl;

	private final Clock clock;

	// in access order, eldest first: the least recently used session; guarded by itself
	private final Map<String, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);

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
		this(maxSessions, maxMessagesPerSession, Duration.ZERO, Clock.systemUTC());
	}

	/**
	 * Create a store with the given bounds and session time-to-live.
	 * @param maxSessions the most sessions kept; at least 1
	 * @param maxMessagesPerSession the most messages kept per session; at least 1
	 * @param sessionTtl how long a session is kept after it was last used;
	 * {@link Duration#ZERO} to keep sessions until evicted by the bounds
	 * @param clock the clock that tells when a session was used
	 */
	public InMemoryConversationStore(int maxSessions, int maxMessagesPerSession, Duration sessionTtl, Clock clock) {
		if (sessionTtl.isNegative()) {
			throw new IllegalArgumentException("'sessionTtl' must not be negative (was " + sessionTtl + ")");
		}
		this.sessionTtl = sessionTtl;
		this.clock = clock;
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

	/**
	 * Return how long a session is kept after it was last used.
	 * @return the time-to-live; {@link Duration#ZERO} when sessions do not expire
	 */
	public Duration sessionTtl() {
		return this.sessionTtl;
	}

	@Override
	public Mono<Conversation> load(String sessionId) {
		return Mono.fromSupplier(() -> {
			synchronized (this.sessions) {
				Session session = live(sessionId);
				return (session != null) ? new Conversation(session.messages(), session.version()) : Conversation.EMPTY;
			}
		});
	}

	@Override
	public Mono<Conversation> loadRecent(String sessionId, int maxMessages) {
		if (maxMessages < 1) {
			return Mono.error(new IllegalArgumentException("'maxMessages' must be at least 1, was " + maxMessages));
		}
		return Mono.fromSupplier(() -> {
			synchronized (this.sessions) {
				Session session = live(sessionId);
				if (session == null) {
					return Conversation.EMPTY;
				}
				List<Message> messages = session.messages();
				// copies only the newest messages (and one more, to tell whether the cut falls on a
				// tool result), not the whole history
				int from = Math.max(0, messages.size() - maxMessages - 1);
				return new Conversation(messages.subList(from, messages.size()), session.version()).newest(maxMessages);
			}
		});
	}

	@Override
	public Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			List<Message> added = List.copyOf(messages);
			update(sessionId, expectedVersion, (existing) -> existing.append(added, this.maxMessagesPerSession));
		});
	}

	@Override
	public Mono<Void> replace(String sessionId, long expectedVersion, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			MessageLog replacement = MessageLog.of(messages);
			update(sessionId, expectedVersion,
					(existing) -> replacement.append(List.of(), this.maxMessagesPerSession));
		});
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return Mono.fromSupplier(() -> {
			synchronized (this.sessions) {
				live(sessionId);
				return this.pending.get(sessionId);
			}
		});
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
	public Mono<Void> savePending(String sessionId, long expectedVersion, PendingTurn turn) {
		// the session is used, so counted and not the next to be evicted
		return Mono.fromRunnable(() -> update(sessionId, expectedVersion, (existing) -> {
			this.pending.put(sessionId, turn);
			this.resuming.remove(sessionId);
			return existing;
		}));
	}

	@Override
	public Mono<Void> completePending(String sessionId, long expectedVersion, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			List<Message> added = List.copyOf(messages);
			update(sessionId, expectedVersion, (existing) -> {
				// removing the pending turn under the lock keeps the two changes atomic
				removePending(sessionId);
				return existing.append(added, this.maxMessagesPerSession);
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

	private void update(String sessionId, long expectedVersion, UnaryOperator<MessageLog> change) {
		synchronized (this.sessions) {
			Session existing = live(sessionId);
			long version = (existing != null) ? existing.version() : 0;
			if (version != expectedVersion) {
				throw new ConversationConflictException(sessionId, expectedVersion);
			}
			MessageLog messages = (existing != null) ? existing.messages() : MessageLog.EMPTY;
			this.sessions.put(sessionId, new Session(change.apply(messages), version + 1, this.clock.instant()));
			expire();
			while (this.sessions.size() > this.maxSessions) {
				String evicted = leastRecentlyUsedExcept(sessionId);
				this.sessions.remove(evicted);
				removePending(evicted);
			}
		}
	}

	/** The session if it has not expired; an expired one is dropped. Call holding the lock. */
	private @Nullable Session live(String sessionId) {
		Session session = this.sessions.get(sessionId);
		if (session != null && expired(session, this.clock.instant())) {
			this.sessions.remove(sessionId);
			removePending(sessionId);
			return null;
		}
		return session;
	}

	private boolean expired(Session session, Instant now) {
		return !this.sessionTtl.isZero() && !session.used().plus(this.sessionTtl).isAfter(now);
	}

	// the eldest sessions come first in access order: stop at the first one still live
	private void expire() {
		if (this.sessionTtl.isZero()) {
			return;
		}
		Instant now = this.clock.instant();
		Iterator<Map.Entry<String, Session>> eldest = this.sessions.entrySet().iterator();
		while (eldest.hasNext()) {
			Map.Entry<String, Session> entry = eldest.next();
			if (!expired(entry.getValue(), now)) {
				return;
			}
			eldest.remove();
			removePending(entry.getKey());
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

	/** A session's messages, the version they are at, and when the session was last changed. */
	private record Session(MessageLog messages, long version, Instant used) {

	}

}
