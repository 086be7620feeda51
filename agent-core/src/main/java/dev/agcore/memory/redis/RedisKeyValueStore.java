package dev.agcore.memory.redis;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.ItemQuery;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.MemoryItem;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Keeps values in Redis by namespace and key, shared by every instance of the
 * application. Per namespace: {@code {prefix}kv:{namespace}:items}, a hash of the items as
 * JSON (value and metadata), and two sorted sets of the keys, {@code …:created} by
 * creation time (for listing oldest first) and {@code …:updated} by last write (for the
 * time-to-live and the capacity), timed by the Redis server's clock. The braces are a
 * hash tag: a namespace lives in one cluster slot. Every operation is one Lua script.
 * <p>
 * Beyond the most items per namespace, the least recently written are dropped on write.
 * Redis 7.0 cannot expire single hash fields, so an item older than the time-to-live is
 * never returned and is removed by the next write or listing of its namespace; a whole
 * namespace left unwritten for longer than the time-to-live expires by Redis itself.
 * Non-blocking; a Redis that cannot be reached fails with a
 * {@link dev.agcore.memory.MemoryUnavailableException}.
 */
public final class RedisKeyValueStore implements KeyValueStore {

	private static final String NAME = "Redis key-value store";

	private final ReactiveStringRedisTemplate redis;

	private final String prefix;

	private final int maxItemsPerNamespace;

	private final Duration ttl;

	/**
	 * Create a store with 10,000 items per namespace and no time-to-live, under the key
	 * prefix {@code agent:}.
	 * @param redis the template over the application's Redis connection
	 */
	public RedisKeyValueStore(ReactiveStringRedisTemplate redis) {
		this(redis, "agent:", 10_000, Duration.ZERO);
	}

	/**
	 * Create a store.
	 * @param redis the template over the application's Redis connection
	 * @param keyPrefix the prefix of every key the store writes
	 * @param maxItemsPerNamespace the most items a namespace keeps; at least 1
	 * @param ttl how long an item is kept after it was last written; {@link Duration#ZERO}
	 * for no limit
	 */
	public RedisKeyValueStore(ReactiveStringRedisTemplate redis, String keyPrefix, int maxItemsPerNamespace,
			Duration ttl) {
		if (maxItemsPerNamespace < 1) {
			throw new IllegalArgumentException(
					"'maxItemsPerNamespace' must be at least 1 (was " + maxItemsPerNamespace + ")");
		}
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("'ttl' must not be negative (was " + ttl + ")");
		}
		this.redis = redis;
		this.prefix = keyPrefix;
		this.maxItemsPerNamespace = maxItemsPerNamespace;
		this.ttl = ttl;
	}

	@Override
	public Mono<MemoryItem> find(String namespace, String key) {
		return list(KeyValueScripts.FIND, namespace, List.of(ttlMicros(), key))
			.flatMap((result) -> result.isEmpty() ? Mono.empty()
					: Mono.just(item(key, result.get(0), result.get(1), result.get(2))));
	}

	@Override
	public Mono<Void> put(String namespace, String key, JsonNode value, JsonNode metadata) {
		return run(KeyValueScripts.PUT, namespace,
				List.of(ttlMicros(), Integer.toString(this.maxItemsPerNamespace), key, itemJson(value, metadata)))
			.then();
	}

	private static String itemJson(JsonNode value, JsonNode metadata) {
		ObjectNode item = AgentJson.mapper().createObjectNode();
		item.set("value", value.deepCopy());
		item.set("metadata", metadata.deepCopy());
		return AgentJson.mapper().writeValueAsString(item);
	}

	@Override
	public Mono<Boolean> putIfAbsent(String namespace, String key, JsonNode value, JsonNode metadata) {
		return run(KeyValueScripts.PUT_IF_ABSENT, namespace,
				List.of(ttlMicros(), Integer.toString(this.maxItemsPerNamespace), key, itemJson(value, metadata)))
			.map((written) -> written == 1L);
	}

	@Override
	public Mono<Boolean> delete(String namespace, String key) {
		return run(KeyValueScripts.DELETE, namespace, List.of(ttlMicros(), key)).map((removed) -> removed == 1L);
	}

	@Override
	public Mono<List<MemoryItem>> list(String namespace, ItemQuery query) {
		Instant since = query.since();
		String lowest = (since != null) ? "(" + micros(since) : "-inf";
		return list(KeyValueScripts.LIST, namespace, List.of(ttlMicros(), lowest, query.keyPrefix(),
				Integer.toString(query.offset()), Integer.toString(query.limit())))
			.map((result) -> {
				List<MemoryItem> items = new ArrayList<>(result.size() / 4);
				for (int i = 0; i + 3 < result.size(); i += 4) {
					items.add(item(result.get(i), result.get(i + 3), result.get(i + 1), result.get(i + 2)));
				}
				return items;
			});
	}

	@Override
	public Mono<Long> clear(String namespace) {
		return run(KeyValueScripts.CLEAR, namespace, List.of(ttlMicros()));
	}

	private Mono<Long> run(RedisScript<Long> script, String namespace, List<String> args) {
		return this.redis.execute(script, redisKeys(namespace), args).next().onErrorMap(this::translate);
	}

	@SuppressWarnings("rawtypes")
	private Mono<List<String>> list(RedisScript<List> script, String namespace, List<String> args) {
		return this.redis.execute(script, redisKeys(namespace), args).collectList().map((result) -> {
			List<?> elements = (result.size() == 1 && result.get(0) instanceof List<?> list) ? list : result;
			return elements.stream().map(String::valueOf).toList();
		}).onErrorMap(this::translate);
	}

	private MemoryItem item(String key, String json, String created, String updated) {
		try {
			JsonNode item = AgentJson.mapper().readTree(json);
			return new MemoryItem(key, item.required("value"), item.required("metadata"), instant(created),
					instant(updated));
		}
		catch (JacksonException | IllegalArgumentException ex) {
			throw new MemoryException("The stored item '" + key + "' is malformed: " + ex.getMessage(), ex);
		}
	}

	private List<String> redisKeys(String namespace) {
		String base = this.prefix + "kv:{" + namespace + "}:";
		return List.of(base + "items", base + "created", base + "updated");
	}

	private String ttlMicros() {
		return Long.toString(this.ttl.toNanos() / 1000);
	}

	private Throwable translate(Throwable ex) {
		return RedisErrors.translate(NAME, ex);
	}

	// scores are whole microseconds; Redis may write a large one in exponent form
	private static Instant instant(String micros) {
		return Instant.EPOCH.plus(new BigDecimal(micros).longValueExact(), ChronoUnit.MICROS);
	}

	private static long micros(Instant instant) {
		return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
	}

}
