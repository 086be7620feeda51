package dev.agcore.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Keeps values in maps in this JVM, copying them on the way in and out. Lost on restart;
 * use a persistent store in production.
 * <p>
 * Bounded: each namespace keeps at most {@link #DEFAULT_MAX_ITEMS_PER_NAMESPACE 10,000}
 * items by default, dropping the least recently written beyond it, and items older than
 * the time-to-live, if one is set, are dropped. An emptied namespace is forgotten.
 * <p>
 * The heap it takes is bounded by an {@link InMemoryBytes} cap (by default a tenth of the
 * maximum heap), shared with the {@link InMemoryConversationStore} when given the same
 * one: beyond it the least recently used units are evicted whole. The namespaces of a
 * session ({@link SessionMemory session memory}, {@code store:session:<id>}, its
 * {@linkplain SessionOwners owner}) and its entries in users' session lists
 * ({@link SessionDirectory}) are one unit with the session's conversations; every other
 * namespace is a unit of its own.
 */
public final class InMemoryKeyValueStore implements KeyValueStore {

	/** Items kept per namespace by default. */
	public static final int DEFAULT_MAX_ITEMS_PER_NAMESPACE = 10_000;

	private static final String SESSION_LONG_TERM_PREFIX = LongTermStore.NAMESPACE_PREFIX + "session:";

	private final int maxItemsPerNamespace;

	private final Duration ttl;

	private final Clock clock;

	private final InMemoryBytes bytes;

	// each namespace in write order, eldest first; guarded by the outer map
	private final Map<String, LinkedHashMap<String, Stored>> namespaces = new HashMap<>();

	// the namespaces each session's unit has items in; guarded by the namespaces
	private final Map<String, Set<String>> namespacesOfSession = new HashMap<>();

	/**
	 * Create a store with the default capacity and no time-to-live.
	 */
	public InMemoryKeyValueStore() {
		this(DEFAULT_MAX_ITEMS_PER_NAMESPACE, Duration.ZERO, Clock.systemUTC());
	}

	/**
	 * Create a store.
	 * @param maxItemsPerNamespace the most items a namespace keeps; at least 1
	 * @param ttl how long an item is kept after it was last written; {@link Duration#ZERO}
	 * for no limit
	 * @param clock the clock that stamps items
	 */
	public InMemoryKeyValueStore(int maxItemsPerNamespace, Duration ttl, Clock clock) {
		this(maxItemsPerNamespace, ttl, clock, InMemoryBytes.ofHeapShare());
	}

	/**
	 * Create a store whose bytes are capped.
	 * @param maxItemsPerNamespace the most items a namespace keeps; at least 1
	 * @param ttl how long an item is kept after it was last written; {@link Duration#ZERO}
	 * for no limit
	 * @param clock the clock that stamps items
	 * @param bytes the cap of the bytes held, shared with the conversation store whose
	 * sessions' namespaces are evicted with them
	 */
	public InMemoryKeyValueStore(int maxItemsPerNamespace, Duration ttl, Clock clock, InMemoryBytes bytes) {
		if (maxItemsPerNamespace < 1) {
			throw new IllegalArgumentException(
					"'maxItemsPerNamespace' must be at least 1 (was " + maxItemsPerNamespace + ")");
		}
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("'ttl' must not be negative (was " + ttl + ")");
		}
		this.maxItemsPerNamespace = maxItemsPerNamespace;
		this.ttl = ttl;
		this.clock = clock;
		this.bytes = bytes;
		bytes.register(this::evict);
	}

	/**
	 * Return how long an item is kept after it was last written.
	 * @return the time-to-live; {@link Duration#ZERO} when items do not expire
	 */
	public Duration ttl() {
		return this.ttl;
	}

	/**
	 * Return the cap of the bytes this store holds.
	 * @return the cap
	 */
	public InMemoryBytes bytes() {
		return this.bytes;
	}

	@Override
	public Mono<MemoryItem> find(String namespace, String key) {
		return Mono.fromSupplier(() -> {
			MemoryItem found;
			synchronized (this.namespaces) {
				Stored stored = live(namespace).get(key);
				found = (stored != null) ? copy(stored.item()) : null;
			}
			if (found != null) {
				this.bytes.touch(unit(namespace, key));
			}
			return found;
		});
	}

	@Override
	public Mono<Void> put(String namespace, String key, JsonNode value, JsonNode metadata) {
		JsonNode valueCopy = value.deepCopy();
		JsonNode metadataCopy = metadata.deepCopy();
		return Mono.fromRunnable(() -> {
			synchronized (this.namespaces) {
				write(namespace, key, valueCopy, metadataCopy);
			}
			this.bytes.enforce(unit(namespace, key));
		});
	}

	// guarded by the namespaces
	private void write(String namespace, String key, JsonNode valueCopy, JsonNode metadataCopy) {
		Instant now = this.clock.instant();
		LinkedHashMap<String, Stored> items = this.namespaces.get(namespace);
		if (items != null) {
			// expiring every item forgets the namespace
			expire(namespace, items, now);
			items = this.namespaces.get(namespace);
		}
		if (items == null) {
			items = new LinkedHashMap<>();
			this.namespaces.put(namespace, items);
			if (!directory(namespace)) {
				this.bytes.charge(unit(namespace, key), InMemoryBytes.NAMESPACE_OVERHEAD);
			}
		}
		// removed first, so the rewritten item moves to the end of the write order
		Stored previous = items.remove(key);
		Instant created = (previous != null) ? previous.item().createdAt() : now;
		long size = Footprint.of(key, valueCopy, metadataCopy);
		items.put(key, new Stored(new MemoryItem(key, valueCopy, metadataCopy, created, now), size));
		String unit = unit(namespace, key);
		this.bytes.charge(unit, size - ((previous != null) ? previous.bytes() : 0));
		String sessionId = InMemoryBytes.sessionOf(unit);
		if (sessionId != null) {
			this.namespacesOfSession.computeIfAbsent(sessionId, (id) -> new HashSet<>()).add(namespace);
		}
		while (items.size() > this.maxItemsPerNamespace) {
			removeItem(namespace, items, items.keySet().iterator().next());
		}
	}

	@Override
	public Mono<Boolean> putIfAbsent(String namespace, String key, JsonNode value, JsonNode metadata) {
		JsonNode valueCopy = value.deepCopy();
		JsonNode metadataCopy = metadata.deepCopy();
		return Mono.fromSupplier(() -> {
			synchronized (this.namespaces) {
				if (live(namespace).containsKey(key)) {
					return false;
				}
				write(namespace, key, valueCopy, metadataCopy);
			}
			this.bytes.enforce(unit(namespace, key));
			return true;
		});
	}

	@Override
	public Mono<Boolean> delete(String namespace, String key) {
		return Mono.fromSupplier(() -> {
			synchronized (this.namespaces) {
				Map<String, Stored> items = live(namespace);
				if (!items.containsKey(key)) {
					return false;
				}
				removeItem(namespace, this.namespaces.get(namespace), key);
				return true;
			}
		});
	}

	@Override
	public Mono<List<MemoryItem>> list(String namespace, ItemQuery query) {
		return Mono.fromSupplier(() -> {
			List<MemoryItem> listed;
			synchronized (this.namespaces) {
				Map<String, Stored> items = live(namespace);
				if (items.isEmpty()) {
					// the common case of a session without memory, read at every turn
					return List.<MemoryItem>of();
				}
				listed = items.values()
					.stream()
					.map(Stored::item)
					.filter(query::matches)
					.sorted(Comparator.comparing(MemoryItem::createdAt).thenComparing(MemoryItem::key))
					.skip(query.offset())
					.limit(query.limit())
					.map(InMemoryKeyValueStore::copy)
					.toList();
			}
			if (!directory(namespace)) {
				this.bytes.touch(unit(namespace, ""));
			}
			return listed;
		});
	}

	@Override
	public Mono<Long> clear(String namespace) {
		return Mono.fromSupplier(() -> {
			synchronized (this.namespaces) {
				LinkedHashMap<String, Stored> items = this.namespaces.get(namespace);
				if (items == null) {
					return 0L;
				}
				long removed = items.size();
				for (String key : List.copyOf(items.keySet())) {
					removeItem(namespace, items, key);
				}
				forget(namespace);
				return removed;
			}
		});
	}

	/**
	 * Remove an item and count what that frees; an emptied namespace is forgotten. Call
	 * holding the lock.
	 */
	private void removeItem(String namespace, @Nullable LinkedHashMap<String, Stored> items, String key) {
		if (items == null) {
			return;
		}
		Stored removed = items.remove(key);
		if (removed == null) {
			return;
		}
		String unit = unit(namespace, key);
		this.bytes.charge(unit, -removed.bytes());
		String sessionId = InMemoryBytes.sessionOf(unit);
		if (sessionId != null && directory(namespace)) {
			// the session keeps its other namespaces; only this list no longer names it
			Set<String> of = this.namespacesOfSession.get(sessionId);
			if (of != null) {
				of.remove(namespace);
				if (of.isEmpty()) {
					this.namespacesOfSession.remove(sessionId);
				}
			}
		}
		if (items.isEmpty()) {
			forget(namespace);
		}
	}

	// an emptied or cleared namespace goes, with what it cost; call holding the lock
	private void forget(String namespace) {
		if (this.namespaces.remove(namespace) == null) {
			return;
		}
		String unit = unit(namespace, "");
		String sessionId = InMemoryBytes.sessionOf(unit);
		if (directory(namespace)) {
			return;
		}
		this.bytes.charge(unit, -InMemoryBytes.NAMESPACE_OVERHEAD);
		if (sessionId != null) {
			Set<String> of = this.namespacesOfSession.get(sessionId);
			if (of != null) {
				of.remove(namespace);
				if (of.isEmpty()) {
					this.namespacesOfSession.remove(sessionId);
				}
			}
		}
	}

	// called by the cap, holding no lock of this store's: the unit's bytes are already forgotten
	private void evict(String unit) {
		synchronized (this.namespaces) {
			String sessionId = InMemoryBytes.sessionOf(unit);
			if (sessionId == null) {
				this.namespaces.remove(InMemoryBytes.namespaceOf(unit));
				return;
			}
			Set<String> of = this.namespacesOfSession.remove(sessionId);
			if (of == null) {
				return;
			}
			for (String namespace : of) {
				if (directory(namespace)) {
					LinkedHashMap<String, Stored> list = this.namespaces.get(namespace);
					if (list != null) {
						list.remove(sessionId);
						if (list.isEmpty()) {
							this.namespaces.remove(namespace);
						}
					}
				}
				else {
					this.namespaces.remove(namespace);
				}
			}
		}
	}

	/**
	 * The unit an item counts in: its session's for the namespaces of a session and the
	 * entries of users' session lists, else its namespace's.
	 */
	static String unit(String namespace, String key) {
		if (directory(namespace)) {
			return InMemoryBytes.sessionUnit(key);
		}
		for (String prefix : new String[] { SessionOwners.NAMESPACE_PREFIX, SessionMemory.NAMESPACE_PREFIX,
				SESSION_LONG_TERM_PREFIX }) {
			if (namespace.startsWith(prefix) && namespace.length() > prefix.length()) {
				return InMemoryBytes.sessionUnit(namespace.substring(prefix.length()));
			}
		}
		return InMemoryBytes.namespaceUnit(namespace);
	}

	private static boolean directory(String namespace) {
		return namespace.startsWith(SessionDirectory.NAMESPACE_PREFIX);
	}

	/** The namespace's items, expired ones dropped; an unknown namespace is empty. */
	private Map<String, Stored> live(String namespace) {
		@Nullable LinkedHashMap<String, Stored> items = this.namespaces.get(namespace);
		if (items == null) {
			// read only: writes create the namespace first
			return Map.of();
		}
		expire(namespace, items, this.clock.instant());
		return items;
	}

	// eldest written first: stop at the first item still live
	private void expire(String namespace, LinkedHashMap<String, Stored> items, Instant now) {
		if (this.ttl.isZero()) {
			return;
		}
		List<String> expired = new ArrayList<>();
		for (Stored stored : items.values()) {
			if (stored.item().updatedAt().plus(this.ttl).isAfter(now)) {
				break;
			}
			expired.add(stored.item().key());
		}
		expired.forEach((key) -> removeItem(namespace, items, key));
	}

	private static MemoryItem copy(MemoryItem item) {
		return new MemoryItem(item.key(), item.value().deepCopy(), item.metadata().deepCopy(), item.createdAt(),
				item.updatedAt());
	}

	/** An item and the estimate of the bytes it holds. */
	private record Stored(MemoryItem item, long bytes) {

	}

}
