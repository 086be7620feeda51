package dev.agcore.memory;

import java.util.List;

import dev.agcore.json.AgentJson;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Stores JSON values by namespace and key, with metadata and timestamps: the memory tools
 * keep between calls and between sessions, session memory and the knowledge store.
 * Implementations are thread-safe; a value read is never affected by later changes to
 * the value written, nor the other way round. A store that cannot be reached fails with
 * a {@link MemoryUnavailableException}.
 * <p>
 * Stores may evict: items older than a time-to-live (counted from their last write) and,
 * beyond a capacity per namespace, the least recently written ones.
 * <p>
 * Tools do not use this SPI directly: they get a synchronous {@link SessionMemory} (the
 * session's own namespace) and {@link LongTermStore} (namespaces shared by all sessions)
 * on top of it.
 */
public interface KeyValueStore {

	/**
	 * Read an item.
	 * @param namespace the namespace
	 * @param key the key
	 * @return the item; empty if there is none
	 */
	Mono<MemoryItem> find(String namespace, String key);

	/**
	 * Write a value with metadata, replacing any previous one; the item keeps the time it
	 * was created.
	 * @param namespace the namespace
	 * @param key the key
	 * @param value the value
	 * @param metadata attributes of the value, a JSON object
	 * @return completes when stored
	 */
	Mono<Void> put(String namespace, String key, JsonNode value, JsonNode metadata);

	/**
	 * Write a value with metadata only if the key has no live value: of concurrent writers,
	 * on one instance or several sharing the backend, exactly one wins. An expired value
	 * counts as none.
	 * @param namespace the namespace
	 * @param key the key
	 * @param value the value
	 * @param metadata attributes of the value, a JSON object
	 * @return whether this call wrote the value; {@code false} if there was one
	 */
	Mono<Boolean> putIfAbsent(String namespace, String key, JsonNode value, JsonNode metadata);

	/**
	 * Remove a value.
	 * @param namespace the namespace
	 * @param key the key
	 * @return whether there was a value
	 */
	Mono<Boolean> delete(String namespace, String key);

	/**
	 * List the items of a namespace, oldest first.
	 * @param namespace the namespace
	 * @param query which items
	 * @return the items; empty for an unknown namespace
	 */
	Mono<List<MemoryItem>> list(String namespace, ItemQuery query);

	/**
	 * Remove every item of a namespace.
	 * @param namespace the namespace
	 * @return how many items were removed
	 */
	Mono<Long> clear(String namespace);

	/**
	 * Read a value.
	 * @param namespace the namespace
	 * @param key the key
	 * @return the value; empty if there is none
	 */
	default Mono<JsonNode> get(String namespace, String key) {
		return find(namespace, key).map(MemoryItem::value);
	}

	/**
	 * Write a value without metadata, replacing any previous one.
	 * @param namespace the namespace
	 * @param key the key
	 * @param value the value
	 * @return completes when stored
	 */
	default Mono<Void> put(String namespace, String key, JsonNode value) {
		return put(namespace, key, value, AgentJson.mapper().createObjectNode());
	}

	/**
	 * List the keys of a namespace.
	 * @param namespace the namespace
	 * @return the keys, sorted; empty for an unknown namespace
	 */
	default Mono<List<String>> keys(String namespace) {
		return list(namespace, ItemQuery.all()).map((items) -> items.stream().map(MemoryItem::key).sorted().toList());
	}

}
