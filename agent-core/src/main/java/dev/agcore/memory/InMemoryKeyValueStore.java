package dev.agcore.memory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Keeps values in maps in this JVM, copying them on the way in and out. Lost on restart;
 * use a persistent store in production.
 */
public final class InMemoryKeyValueStore implements KeyValueStore {

	private final Map<String, Map<String, JsonNode>> namespaces = new ConcurrentHashMap<>();

	@Override
	public Mono<JsonNode> get(String namespace, String key) {
		return Mono.fromSupplier(() -> {
			JsonNode value = this.namespaces.getOrDefault(namespace, Map.of()).get(key);
			return (value != null) ? value.deepCopy() : null;
		});
	}

	@Override
	public Mono<Void> put(String namespace, String key, JsonNode value) {
		JsonNode copy = value.deepCopy();
		return Mono.fromRunnable(
				() -> this.namespaces.computeIfAbsent(namespace, (name) -> new ConcurrentHashMap<>()).put(key, copy));
	}

	@Override
	public Mono<Boolean> delete(String namespace, String key) {
		return Mono.fromSupplier(() -> {
			Map<String, JsonNode> values = this.namespaces.get(namespace);
			return values != null && values.remove(key) != null;
		});
	}

	@Override
	public Mono<List<String>> keys(String namespace) {
		return Mono.fromSupplier(() -> this.namespaces.getOrDefault(namespace, Map.of()).keySet().stream().sorted().toList());
	}

}
