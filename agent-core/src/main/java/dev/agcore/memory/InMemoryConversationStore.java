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
 * <p>
 * The heap they take is bounded too, by an {@link InMemoryBytes} cap (by default a tenth
 * of the maximum heap): beyond it the least recently used sessions are evicted whole.
 * Give the same cap to the {@link InMemoryKeyValueStore} to evict a session's memory and
 * {@linkplain SessionOwners owner} with its conversations, as the Spring Boot
 * auto-configuration does: a session evicted, expired or dropped beyond the count
 * bound then leaves nothing behind, and its owner record goes only with it.
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

	private final InMemoryBytes bytes;

	// in access order, eldest first: the least recently used session; guarded by itself
	private final Map<String, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);

	private final Map<String, PendingTurn> pending = new ConcurrentHashMap<>();

	/** Sessions whose pending turn is being resumed; guarded by the lock on {@link #sessions}. */
	private final Set<String> resuming = new HashSet<>();

	/** The session each conversation counts in; guarded by the lock on {@link #sessions}. */
	private final ConversationUnits units = new ConversationUnits();

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
		this(maxSessions, maxMessagesPerSession, sessionTtl, clock, InMemoryBytes.ofHeapShare());
	}

	/**
	 * Create a store with the given bounds, session time-to-live and cap of the bytes
	 * held.
	 * @param maxSessions the most sessions kept; at least 1
	 * @param maxMessagesPerSession the most messages kept per session; at least 1
	 * @param sessionTtl how long a session is kept after it was last used;
	 * {@link Duration#ZERO} to keep sessions until evicted by the bounds
	 * @param clock the clock that tells when a session was used
	 * @param bytes the cap of the bytes held, shared with the key-value store whose
	 * session namespaces and owners are evicted with the conversations
	 */
	public InMemoryConversationStore(int maxSessions, int maxMessagesPerSession, Duration sessionTtl, Clock clock,
			InMemoryBytes bytes) {
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
		this.bytes = bytes;
		bytes.register(new InMemoryBytes.Evictor() {

			@Override
			public void evict(String unit) {
				evictUnit(unit);
			}

			@Override
			public boolean waiting(String unit) {
				String sessionId = InMemoryBytes.sessionOf(unit);
				return sessionId != null && InMemoryConversationStore.this.pending.containsKey(sessionId);
			}

		});
	}

	/**
	 * Return the cap of the bytes this store holds.
	 * @return the cap
	 */
	public InMemoryBytes bytes() {
		return this.bytes;
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
			Conversation conversation;
			synchronized (this.sessions) {
				Session session = live(sessionId);
				conversation = (session != null) ? new Conversation(session.messages(), session.version())
						: Conversation.EMPTY;
			}
			used(sessionId);
			return conversation;
		});
	}

	@Override
	public Mono<Conversation> loadRecent(String sessionId, int maxMessages) {
		if (maxMessages < 1) {
			return Mono.error(new IllegalArgumentException("'maxMessages' must be at least 1, was " + maxMessages));
		}
		return Mono.fromSupplier(() -> {
			Conversation conversation;
			synchronized (this.sessions) {
				Session session = live(sessionId);
				if (session == null) {
					conversation = Conversation.EMPTY;
				}
				else {
					List<Message> messages = session.messages();
					// copies only the newest messages (and one more, to tell whether the cut falls on
					// a tool result), not the whole history
					int from = Math.max(0, messages.size() - maxMessages - 1);
					conversation = new Conversation(messages.subList(from, messages.size()), session.version())
						.newest(maxMessages);
				}
			}
			used(sessionId);
			return conversation;
		});
	}

	@Override
	public Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			List<Message> added = List.copyOf(messages);
			update(sessionId, expectedVersion, (existing) -> existing.append(added, this.maxMessagesPerSession),
					(before, bytesBefore, after) -> Footprint.afterAppend(before, bytesBefore, added, after));
		});
	}

	@Override
	public Mono<Void> replace(String sessionId, long expectedVersion, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			MessageLog replacement = MessageLog.of(messages);
			update(sessionId, expectedVersion,
					(existing) -> replacement.append(List.of(), this.maxMessagesPerSession), Sizer.WHOLE);
		});
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return Mono.fromSupplier(() -> {
			PendingTurn turn;
			synchronized (this.sessions) {
				live(sessionId);
				turn = this.pending.get(sessionId);
			}
			used(sessionId);
			return turn;
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
			PendingTurn replaced = this.pending.put(sessionId, turn);
			this.bytes.charge(unit(sessionId), Footprint.of(turn) - Footprint.of(replaced));
			this.resuming.remove(sessionId);
			return existing;
		}, Sizer.UNCHANGED));
	}

	@Override
	public Mono<Void> completePending(String sessionId, long expectedVersion, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			List<Message> added = List.copyOf(messages);
			update(sessionId, expectedVersion, (existing) -> {
				// removing the pending turn under the lock keeps the two changes atomic
				removePending(sessionId);
				return existing.append(added, this.maxMessagesPerSession);
			}, (before, bytesBefore, after) -> Footprint.afterAppend(before, bytesBefore, added, after));
		});
	}

	@Override
	public Mono<Void> clear(String sessionId) {
		return Mono.fromRunnable(() -> {
			synchronized (this.sessions) {
				remove(sessionId);
			}
		});
	}

	/**
	 * Keep an isolated conversation with its session: evicted with it, and counted as
	 * its bytes. Called by {@link IsolatedConversationStore} before each write.
	 */
	void bind(String conversationId, String sessionId) {
		synchronized (this.sessions) {
			this.units.bind(conversationId, sessionId);
		}
	}

	// the unit a conversation's bytes are counted in: its session's; call holding the lock
	private String unit(String conversationId) {
		return this.units.unit(conversationId);
	}

	// a read: the session becomes the most recently used, and what expired under the lock goes
	private void used(String conversationId) {
		String unit;
		synchronized (this.sessions) {
			unit = unit(conversationId);
		}
		this.bytes.touch(unit);
		evictDropped();
	}

	/** Drop a conversation and its pending turn, counting what that frees. Call holding the lock. */
	private void remove(String conversationId) {
		Session removed = this.sessions.remove(conversationId);
		String unit = unit(conversationId);
		if (removed != null) {
			this.bytes.charge(unit, -removed.bytes());
		}
		removePending(conversationId);
		this.units.forget(conversationId);
	}

	/**
	 * Drop a conversation the store let go of (expired, or beyond the count bound): its
	 * session is evicted whole once the lock is released, unless another conversation of
	 * the session is still kept. Call holding the lock.
	 */
	private void dropped(String conversationId) {
		String unit = unit(conversationId);
		remove(conversationId);
		String sessionId = InMemoryBytes.sessionOf(unit);
		if (sessionId != null && !this.sessions.containsKey(sessionId)
				&& this.units.derived(sessionId).stream().noneMatch(this.sessions::containsKey)) {
			this.units.evictLater(unit);
		}
	}

	// holding no lock: the sessions dropped under it are evicted from every store sharing the cap
	private void evictDropped() {
		List<String> dropped;
		synchronized (this.sessions) {
			dropped = this.units.drainEvictions();
		}
		dropped.forEach(this.bytes::evict);
	}

	// called by the cap, holding no lock of this store's
	private void evictUnit(String unit) {
		String sessionId = InMemoryBytes.sessionOf(unit);
		if (sessionId == null) {
			return;
		}
		synchronized (this.sessions) {
			List.copyOf(this.units.derived(sessionId)).forEach(this::remove);
			remove(sessionId);
		}
	}

	private void update(String sessionId, long expectedVersion, UnaryOperator<MessageLog> change, Sizer sizer) {
		String unit;
		try {
			synchronized (this.sessions) {
				Session existing = live(sessionId);
				long version = (existing != null) ? existing.version() : 0;
				if (version != expectedVersion) {
					throw new ConversationConflictException(sessionId, expectedVersion);
				}
				MessageLog messages = (existing != null) ? existing.messages() : MessageLog.EMPTY;
				MessageLog changed = change.apply(messages);
				long before = (existing != null) ? existing.bytes() : 0;
				long after = sizer.bytes(messages, (existing != null) ? before : InMemoryBytes.SESSION_OVERHEAD,
						changed);
				this.sessions.put(sessionId, new Session(changed, version + 1, this.clock.instant(), after));
				unit = unit(sessionId);
				this.bytes.charge(unit, after - before);
				expire();
				while (this.sessions.size() > this.maxSessions) {
					dropped(leastRecentlyUsedExcept(sessionId));
				}
			}
		}
		finally {
			evictDropped();
		}
		this.bytes.enforce(unit);
	}

	/** How the bytes of a conversation change with it. */
	@FunctionalInterface
	private interface Sizer {

		Sizer UNCHANGED = (before, bytesBefore, after) -> bytesBefore;

		Sizer WHOLE = (before, bytesBefore, after) -> Footprint.ofConversation(after);

		long bytes(MessageLog before, long bytesBefore, MessageLog after);

	}

	/** The session if it has not expired; an expired one is dropped. Call holding the lock. */
	private @Nullable Session live(String sessionId) {
		Session session = this.sessions.get(sessionId);
		if (session != null && expired(session, this.clock.instant())) {
			dropped(sessionId);
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
			// removed through the map, not the iterator: the bytes and the session go with it
			dropped(entry.getKey());
			eldest = this.sessions.entrySet().iterator();
		}
	}

	private void removePending(String sessionId) {
		PendingTurn removed = this.pending.remove(sessionId);
		if (removed != null) {
			this.bytes.charge(unit(sessionId), -Footprint.of(removed));
		}
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

	/**
	 * A session's messages, the version they are at, when the session was last changed,
	 * and the estimate of the bytes it holds.
	 */
	private record Session(MessageLog messages, long version, Instant used, long bytes) {

	}

}
