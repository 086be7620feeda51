package dev.agcore.memory.redis;

import java.time.Duration;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.KeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Redis key-value store does beyond the contract: its key layout, and items
 * past their time-to-live that no write has purged yet.
 */
class RedisKeyValueStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static RedisTestSupport redis;

	private static ReactiveStringRedisTemplate template;

	@BeforeAll
	static void connect() {
		redis = new RedisTestSupport("agcore-test:kv:" + ProcessHandle.current().pid() + ":");
		template = redis.template();
	}

	@AfterAll
	static void disconnect() {
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void keepsANamespaceInThreeKeysOfOneHashTag() {
		KeyValueStore store = new RedisKeyValueStore(template, redis.keyPrefix(), 100, Duration.ofMinutes(5));
		store.put("layout", "k", json("{\"a\":1}"), json("{\"source\":\"chat\"}")).block(TIMEOUT);

		String base = redis.keyPrefix() + "kv:{layout}:";
		assertThat(json(template.<String, String>opsForHash().get(base + "items", "k").block(TIMEOUT)))
			.isEqualTo(json("{\"value\":{\"a\":1},\"metadata\":{\"source\":\"chat\"}}"));
		assertThat(template.opsForZSet().score(base + "created", "k").block(TIMEOUT)).isPositive();
		assertThat(template.opsForZSet().score(base + "updated", "k").block(TIMEOUT)).isPositive();
		for (String key : new String[] { "items", "created", "updated" }) {
			assertThat(template.getExpire(base + key).block(TIMEOUT)).isBetween(Duration.ofMinutes(4),
					Duration.ofMinutes(5));
		}
	}

	@Test
	void anItemPastItsTimeToLiveIsNeverReadAndIsPurgedByTheNextListing() throws InterruptedException {
		KeyValueStore store = new RedisKeyValueStore(template, redis.keyPrefix(), 100, Duration.ofSeconds(2));
		store.put("expiring", "old", json("1")).block(TIMEOUT);
		Thread.sleep(1200);
		// renews the namespace's expiry, not the old item's
		store.put("expiring", "new", json("2")).block(TIMEOUT);
		Thread.sleep(1300);

		String items = redis.keyPrefix() + "kv:{expiring}:items";
		// no write since the old item expired: it is still in Redis, but gone for the store
		assertThat(template.<String, String>opsForHash().hasKey(items, "old").block(TIMEOUT)).isTrue();
		assertThat(store.find("expiring", "old").blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.keys("expiring").block(TIMEOUT)).containsExactly("new");
		assertThat(template.<String, String>opsForHash().keys(items).collectList().block(TIMEOUT))
			.containsExactly("new");
		assertThat(store.delete("expiring", "old").block(TIMEOUT)).isFalse();
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

}
