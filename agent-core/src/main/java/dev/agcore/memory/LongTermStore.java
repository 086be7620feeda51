package dev.agcore.memory;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.agcore.json.AgentJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Memory shared by all sessions of all agents using the same {@link KeyValueStore}, for
 * tools: facts, preferences, anything that outlives a conversation. Organised in
 * namespaces the tools choose (for example a user id); stored under
 * {@code store:<namespace>}, apart from session memory. Inject it into a tool by
 * declaring a parameter of this type. Thread-safe.
 */
public final class LongTermStore {

	/** Prefix of the store namespaces of long-term memory. */
	public static final String NAMESPACE_PREFIX = "store:";

	private final KeyValueStore store;

	private final JsonMapper mapper;

	private LongTermStore(KeyValueStore store, JsonMapper mapper) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		this.mapper = Objects.requireNonNull(mapper, "'mapper' must not be null");
	}

	public static LongTermStore of(KeyValueStore store) {
		return of(store, AgentJson.mapper());
	}

	public static LongTermStore of(KeyValueStore store, JsonMapper mapper) {
		return new LongTermStore(store, mapper);
	}

	/**
	 * Return a view of one namespace.
	 * @param namespace the namespace, e.g. a user id
	 * @return the view
	 */
	public KeyValueNamespace namespace(String namespace) {
		return new KeyValueNamespace(this.store,
				NAMESPACE_PREFIX + KeyValueNamespace.requireText(namespace, "namespace"), this.mapper);
	}

	public Optional<JsonNode> get(String namespace, String key) {
		return namespace(namespace).get(key);
	}

	public <T> Optional<T> get(String namespace, String key, Class<T> type) {
		return namespace(namespace).get(key, type);
	}

	public void put(String namespace, String key, Object value) {
		namespace(namespace).put(key, value);
	}

	public boolean delete(String namespace, String key) {
		return namespace(namespace).delete(key);
	}

	public List<String> keys(String namespace) {
		return namespace(namespace).keys();
	}

}
