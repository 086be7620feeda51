package dev.agcore.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * The bytes the in-memory stores hold, shared by an {@link InMemoryConversationStore}
 * and an {@link InMemoryKeyValueStore}, and the order in which they give them back.
 * Counting sessions or items does not bound the heap (one session may hold one message of
 * 200 KB, or a thousand of them), so the stores report an estimate of what each write
 * adds and each removal frees, and beyond {@link #maxBytes()} the least recently used
 * <em>units</em> are evicted until the estimate is back under the cap.
 * <p>
 * A unit is a whole session: its conversations (shared and isolated), paused turn,
 * session memory ({@code session:<id>}), session-scoped long-term memory
 * ({@code store:session:<id>}), entries in users' session lists and its
 * {@linkplain SessionOwners owner}. They are evicted together, so an owner record never
 * outlives, nor is dropped before, the conversation it guards: a conversation without its
 * owner could be claimed by the next caller. Every other key-value namespace (a user's
 * long-term memory, task records) is a unit of its own.
 * <p>
 * Thread-safe. Using a unit costs one map read and one counter increment, with no lock;
 * eviction, which runs only over the cap, scans the units once and brings the estimate
 * down to {@link #lowWaterMark() 15/16 of the cap}, so that it runs in batches rather than
 * at every write. The estimate counts two bytes per character of text and JSON (Java
 * strings of non-Latin text) plus a fixed overhead per message, item and namespace, so
 * it errs on the side of evicting early.
 */
public final class InMemoryBytes {

	/** The share of the maximum heap the stores may hold by default: a tenth. */
	public static final int DEFAULT_HEAP_PERCENT = 10;

	/** The least cap: below it a single turn could not be kept. */
	public static final long MIN_MAX_BYTES = 64 * 1024;

	static final long MESSAGE_OVERHEAD = 96;

	static final long ITEM_OVERHEAD = 192;

	static final long NAMESPACE_OVERHEAD = 256;

	static final long SESSION_OVERHEAD = 256;

	private static final String SESSION_UNIT = "s:";

	private static final String NAMESPACE_UNIT = "n:";

	private final long maxBytes;

	private final AtomicLong total = new AtomicLong();

	private final AtomicLong clock = new AtomicLong();

	private final Map<String, Unit> units = new ConcurrentHashMap<>();

	private final List<Evictor> evictors = new CopyOnWriteArrayList<>();

	private final Object evicting = new Object();

	private InMemoryBytes(long maxBytes) {
		if (maxBytes < MIN_MAX_BYTES) {
			throw new IllegalArgumentException(
					"'maxBytes' must be at least " + MIN_MAX_BYTES + " (was " + maxBytes + ")");
		}
		this.maxBytes = maxBytes;
	}

	/**
	 * Return a cap of {@code maxBytes}.
	 * @param maxBytes the most bytes the stores sharing it hold; at least
	 * {@link #MIN_MAX_BYTES}
	 * @return the cap
	 */
	public static InMemoryBytes of(long maxBytes) {
		return new InMemoryBytes(maxBytes);
	}

	/**
	 * Return a cap of {@link #DEFAULT_HEAP_PERCENT 10 %} of this JVM's maximum heap.
	 * @return the cap
	 */
	public static InMemoryBytes ofHeapShare() {
		return of(defaultMaxBytes());
	}

	/**
	 * Return the default cap: {@link #DEFAULT_HEAP_PERCENT 10 %} of this JVM's maximum
	 * heap, and at least {@link #MIN_MAX_BYTES}.
	 * @return the cap in bytes
	 */
	public static long defaultMaxBytes() {
		return Math.max(MIN_MAX_BYTES, Runtime.getRuntime().maxMemory() / 100 * DEFAULT_HEAP_PERCENT);
	}

	/**
	 * Return the most bytes the stores hold.
	 * @return the cap
	 */
	public long maxBytes() {
		return this.maxBytes;
	}

	/**
	 * Return the estimate of the bytes the stores hold now.
	 * @return the estimate
	 */
	public long bytes() {
		return this.total.get();
	}

	/**
	 * Return the estimate an eviction brings the stores down to.
	 * @return 15/16 of the cap
	 */
	public long lowWaterMark() {
		return this.maxBytes - this.maxBytes / 16;
	}

	/**
	 * Return the estimate of the bytes a session holds in the stores.
	 * @param sessionId the session
	 * @return the estimate; 0 for a session they do not hold
	 */
	public long sessionBytes(String sessionId) {
		Unit unit = this.units.get(sessionUnit(sessionId));
		return (unit != null) ? unit.bytes : 0;
	}

	void register(Evictor evictor) {
		this.evictors.add(evictor);
	}

	/**
	 * Add {@code delta} bytes to a unit, which becomes the most recently used; a unit
	 * that holds nothing any more is forgotten.
	 */
	void charge(String unit, long delta) {
		if (delta == 0) {
			touch(unit);
			return;
		}
		long now = this.clock.incrementAndGet();
		this.units.compute(unit, (key, existing) -> {
			if (existing == null && delta < 0) {
				// already evicted: what it freed was counted then
				return null;
			}
			Unit charged = (existing != null) ? existing : new Unit();
			long before = charged.bytes;
			charged.bytes = Math.max(0, before + delta);
			charged.used = now;
			this.total.addAndGet(charged.bytes - before);
			return (charged.bytes > 0) ? charged : null;
		});
	}

	/** Mark a unit as the most recently used. */
	void touch(String unit) {
		Unit used = this.units.get(unit);
		if (used != null) {
			used.used = this.clock.incrementAndGet();
		}
	}

	/**
	 * Evict a unit now, from every store, for instance because its conversation expired.
	 * Call holding no store's lock.
	 */
	void evict(String unit) {
		synchronized (this.evicting) {
			drop(unit);
		}
	}

	/**
	 * Evict the least recently used units, other than {@code keep}, while the estimate is
	 * over the cap, down to the low-water mark. Units that wait for something (a paused
	 * turn) go after the others. Call holding no store's lock.
	 * @param keep the unit just written, never evicted here; {@code null} for none
	 */
	void enforce(@Nullable String keep) {
		if (this.total.get() <= this.maxBytes) {
			return;
		}
		synchronized (this.evicting) {
			if (this.total.get() <= this.maxBytes) {
				return;
			}
			List<Map.Entry<String, Long>> candidates = new ArrayList<>(this.units.size());
			this.units.forEach((key, unit) -> {
				if (!key.equals(keep)) {
					candidates.add(Map.entry(key, unit.used));
				}
			});
			candidates.sort(Comparator.comparingLong(Map.Entry::getValue));
			List<String> waiting = new ArrayList<>();
			long target = lowWaterMark();
			for (Map.Entry<String, Long> candidate : candidates) {
				if (this.total.get() <= target) {
					return;
				}
				if (waits(candidate.getKey())) {
					waiting.add(candidate.getKey());
					continue;
				}
				drop(candidate.getKey());
			}
			for (String unit : waiting) {
				if (this.total.get() <= target) {
					return;
				}
				drop(unit);
			}
		}
	}

	// holding the eviction lock: forget the unit's bytes first, so eviction always progresses
	private void drop(String unit) {
		Unit removed = this.units.remove(unit);
		if (removed != null) {
			this.total.addAndGet(-removed.bytes);
		}
		for (Evictor evictor : this.evictors) {
			evictor.evict(unit);
		}
	}

	private boolean waits(String unit) {
		for (Evictor evictor : this.evictors) {
			if (evictor.waiting(unit)) {
				return true;
			}
		}
		return false;
	}

	static String sessionUnit(String sessionId) {
		return SESSION_UNIT + sessionId;
	}

	static String namespaceUnit(String namespace) {
		return NAMESPACE_UNIT + namespace;
	}

	/** The session of a unit; {@code null} for a namespace's. */
	static @Nullable String sessionOf(String unit) {
		return unit.startsWith(SESSION_UNIT) ? unit.substring(SESSION_UNIT.length()) : null;
	}

	/** The namespace of a unit; {@code null} for a session's. */
	static @Nullable String namespaceOf(String unit) {
		return unit.startsWith(NAMESPACE_UNIT) ? unit.substring(NAMESPACE_UNIT.length()) : null;
	}

	/**
	 * A store whose units can be evicted.
	 */
	interface Evictor {

		/**
		 * Remove everything the store holds of a unit, without charging what it frees:
		 * the unit was forgotten as a whole. Called holding no other store's lock.
		 */
		void evict(String unit);

		/** Whether the unit waits for something and should go after the others. */
		default boolean waiting(String unit) {
			return false;
		}

	}

	private static final class Unit {

		// written under the map's compute; read by eviction
		volatile long bytes;

		volatile long used;

	}

}
