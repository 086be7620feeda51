package dev.agcore.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Keeps values in maps in this JVM, copying them on the way in and out. Lost on restart;
 * use a persistent store in production.
 * <p>
 * Bounded: each namespace keeps at most {@link #DEFAULT_MAX_ITEMS_PER_NAMESPACE 10,000}
 * items by default, dropping the least recently written beyond it, and items older than
 * the time-to-live, if one is set, are dropped.
 */
public final class InMemoryKeyValueStore implements KeyValueStore {

	/** Items kept per namespace by default. */
	public static final int DEFAULT_MAX_ITEMS_PER_NAMESPACE = 10_000;

	private final int maxItemsPerNamespace;

	private final Duration ttl;

	private final Clock clock;

	// each namespace in write order, eldest first; guarded by the outer map
	private final Map<String, LinkedHashMap<String, MemoryItem>> namespaces = new HashMap<>();

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
	}

	@Override
	public Mono<MemoryItem> find(String namespace, String key) {
		return Mono.fromSupplier(() -> {
			synchronized (this.namespaces) {
				MemoryItem item = live(namespace).get(key);
				return (item != null) ? copy(item) : null;
			}
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
		});
	}

	// guarded by the namespaces
	private void write(String namespace, String key, JsonNode valueCopy, JsonNode metadataCopy) {
		Instant now = this.clock.instant();
		LinkedHashMap<String, MemoryItem> items = this.namespaces.computeIfAbsent(namespace,
				(name) -> new LinkedHashMap<>());
		expire(items, now);
		// removed first, so the rewritten item moves to the end of the write order
		MemoryItem previous = items.remove(key);
		Instant created = (previous != null) ? previous.createdAt() : now;
		items.put(key, new MemoryItem(key, valueCopy, metadataCopy, created, now));
		while (items.size() > this.maxItemsPerNamespace) {
			items.remove(items.keySet().iterator().next());
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
				return true;
			}
		});
	}

	@Override
	public Mono<Boolean> delete(String namespace, String key) {
		return Mono.fromSupplier(() -> {
			synchronized (this.namespaces) {
				Map<String, MemoryItem> items = live(namespace);
				return !items.isEmpty() && items.remove(key) != null;
			}
		});
	}

	@Override
	public Mono<List<MemoryItem>> list(String namespace, ItemQuery query) {
		return Mono.fromSupplier(() -> {
			synchronized (this.namespaces) {
				Map<String, MemoryItem> items = live(namespace);
				if (items.isEmpty()) {
					// the common case of a session without memory, read at every turn
					return List.<MemoryItem>of();
				}
				return items.values()
					.stream()
					.filter(query::matches)
					.sorted(Comparator.comparing(MemoryItem::createdAt).thenComparing(MemoryItem::key))
					.skip(query.offset())
					.limit(query.limit())
					.map(InMemoryKeyValueStore::copy)
					.toList();
			}
		});
	}

	@Override
	public Mono<Long> clear(String namespace) {
		return Mono.fromSupplier(() -> {
			synchronized (this.namespaces) {
				Map<String, MemoryItem> removed = this.namespaces.remove(namespace);
				return (removed != null) ? (long) removed.size() : 0L;
			}
		});
	}

	/** The namespace's items, expired ones dropped; an unknown namespace is empty. */
	private Map<String, MemoryItem> live(String namespace) {
		@Nullable LinkedHashMap<String, MemoryItem> items = this.namespaces.get(namespace);
		if (items == null) {
			// read only: writes create the namespace first
			return Map.of();
		}
		expire(items, this.clock.instant());
		return items;
	}

	// eldest written first: stop at the first item still live
	private void expire(LinkedHashMap<String, MemoryItem> items, Instant now) {
		if (this.ttl.isZero()) {
			return;
		}
		var eldest = items.values().iterator();
		while (eldest.hasNext() && !eldest.next().updatedAt().plus(this.ttl).isAfter(now)) {
			eldest.remove();
		}
	}

	private static MemoryItem copy(MemoryItem item) {
		return new MemoryItem(item.key(), item.value().deepCopy(), item.metadata().deepCopy(), item.createdAt(),
				item.updatedAt());
	}

}
