package dev.agcore.memory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.agcore.json.AgentJson;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A synchronous view of one namespace of a {@link KeyValueStore}, for tools: they run on
 * threads that may block. Values are converted to and from Java objects with a Jackson
 * mapper. Thread-safe.
 */
public class KeyValueNamespace {

	/** How long a tool waits for the store before giving up. */
	static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final KeyValueStore store;

	private final String namespace;

	private final JsonMapper mapper;

	KeyValueNamespace(KeyValueStore store, String namespace, JsonMapper mapper) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		this.namespace = requireText(namespace, "namespace");
		this.mapper = Objects.requireNonNull(mapper, "'mapper' must not be null");
	}

	/**
	 * Create a view of a namespace of a store.
	 * @param store the store
	 * @param namespace the namespace, as the store knows it
	 * @return the view
	 */
	public static KeyValueNamespace of(KeyValueStore store, String namespace) {
		return new KeyValueNamespace(store, namespace, AgentJson.mapper());
	}

	/**
	 * Return the namespace, as the store knows it.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	KeyValueStore store() {
		return this.store;
	}

	/**
	 * Read an item with its metadata and timestamps.
	 * @param key the key
	 * @return the item, or empty
	 */
	public Optional<MemoryItem> find(String key) {
		return Optional.ofNullable(this.store.find(this.namespace, requireText(key, "key")).block(TIMEOUT));
	}

	/**
	 * Write a value with metadata, both converted to JSON.
	 * @param key the key
	 * @param value the value
	 * @param metadata attributes of the value, converted to a JSON object
	 */
	public void put(String key, Object value, Object metadata) {
		Objects.requireNonNull(value, "'value' must not be null");
		Objects.requireNonNull(metadata, "'metadata' must not be null");
		JsonNode json = (value instanceof JsonNode node) ? node : this.mapper.valueToTree(value);
		JsonNode meta = (metadata instanceof JsonNode node) ? node : this.mapper.valueToTree(metadata);
		if (!meta.isObject()) {
			throw new IllegalArgumentException("'metadata' must be a JSON object, was " + meta.getNodeType());
		}
		this.store.put(this.namespace, requireText(key, "key"), json, meta).block(TIMEOUT);
	}

	/**
	 * List items, oldest first.
	 * @param query which items
	 * @return the items
	 */
	public List<MemoryItem> list(ItemQuery query) {
		List<MemoryItem> items = this.store.list(this.namespace, Objects.requireNonNull(query, "'query' must not be null"))
			.block(TIMEOUT);
		return (items != null) ? items : List.of();
	}

	/**
	 * Read a value as JSON.
	 * @param key the key
	 * @return the value, or empty
	 */
	public Optional<JsonNode> get(String key) {
		return Optional.ofNullable(this.store.get(this.namespace, requireText(key, "key")).block(TIMEOUT));
	}

	/**
	 * Read a value converted to a type.
	 * @param <T> the type
	 * @param key the key
	 * @param type the type
	 * @return the value, or empty
	 */
	public <T> Optional<T> get(String key, Class<T> type) {
		Objects.requireNonNull(type, "'type' must not be null");
		return get(key).map((value) -> this.mapper.treeToValue(value, type));
	}

	/**
	 * Read a value converted to a type, without blocking: for middleware, whose reactive
	 * hooks may run on an event loop.
	 * @param <T> the type
	 * @param key the key
	 * @param type the type
	 * @return the value, or empty
	 */
	public <T> Mono<T> getAsync(String key, Class<T> type) {
		Objects.requireNonNull(type, "'type' must not be null");
		return this.store.get(this.namespace, requireText(key, "key"))
			.map((value) -> this.mapper.treeToValue(value, type));
	}

	/**
	 * Write a value, converted to JSON.
	 * @param key the key
	 * @param value the value
	 */
	public void put(String key, Object value) {
		Objects.requireNonNull(value, "'value' must not be null");
		JsonNode json = (value instanceof JsonNode node) ? node : this.mapper.valueToTree(value);
		this.store.put(this.namespace, requireText(key, "key"), json).block(TIMEOUT);
	}

	/**
	 * Remove a value.
	 * @param key the key
	 * @return whether there was a value
	 */
	public boolean delete(String key) {
		return Boolean.TRUE.equals(this.store.delete(this.namespace, requireText(key, "key")).block(TIMEOUT));
	}

	/**
	 * List the keys.
	 * @return the keys, sorted
	 */
	public List<String> keys() {
		List<String> keys = this.store.keys(this.namespace).block(TIMEOUT);
		return (keys != null) ? keys : List.of();
	}

	static String requireText(String value, String name) {
		Objects.requireNonNull(value, () -> "'" + name + "' must not be null");
		if (value.isEmpty()) {
			throw new IllegalArgumentException("'" + name + "' must not be empty");
		}
		return value;
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + " '" + this.namespace + "'";
	}

}
