package dev.agcore.memory;

import java.util.List;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Stores JSON values by namespace and key: the memory tools keep between calls and
 * between sessions. Implementations are thread-safe; a value read is never affected by
 * later changes to the value written, nor the other way round.
 * <p>
 * Tools do not use this SPI directly: they get a synchronous {@link SessionMemory} (the
 * session's own namespace) and {@link LongTermStore} (namespaces shared by all sessions)
 * on top of it.
 */
public interface KeyValueStore {

	/**
	 * Read a value.
	 * @param namespace the namespace
	 * @param key the key
	 * @return the value; empty if there is none
	 */
	Mono<JsonNode> get(String namespace, String key);

	/**
	 * Write a value, replacing any previous one.
	 * @param namespace the namespace
	 * @param key the key
	 * @param value the value
	 * @return completes when stored
	 */
	Mono<Void> put(String namespace, String key, JsonNode value);

	/**
	 * Remove a value.
	 * @param namespace the namespace
	 * @param key the key
	 * @return whether there was a value
	 */
	Mono<Boolean> delete(String namespace, String key);

	/**
	 * List the keys of a namespace.
	 * @param namespace the namespace
	 * @return the keys, sorted; empty for an unknown namespace
	 */
	Mono<List<String>> keys(String namespace);

}
