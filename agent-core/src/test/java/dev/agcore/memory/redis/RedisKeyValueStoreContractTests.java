package dev.agcore.memory.redis;

import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.KeyValueStoreContract;
import dev.agcore.memory.StoreOutage;
import dev.agcore.memory.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * The key-value store contract on the local Redis; the second instance has its own
 * connection.
 */
class RedisKeyValueStoreContractTests extends KeyValueStoreContract {

	private static RedisTestSupport redis;

	private static TcpProxy proxy;

	@BeforeAll
	static void connect() {
		redis = new RedisTestSupport("agcore-test:kv-contract:" + ProcessHandle.current().pid() + ":");
		proxy = TcpProxy.to(RedisTestSupport.HOST, RedisTestSupport.PORT);
	}

	@AfterAll
	static void disconnect() {
		if (proxy != null) {
			proxy.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Override
	protected KeyValueStore createStore(Settings settings) {
		return store(redis.template(), settings);
	}

	@Override
	protected StoreOutage<KeyValueStore> outage() {
		KeyValueStore store = store(redis.template(proxy.port()), Settings.DEFAULT);
		return new StoreOutage<>(store, proxy);
	}

	private static KeyValueStore store(ReactiveStringRedisTemplate template, Settings settings) {
		return new RedisKeyValueStore(template, redis.keyPrefix(), settings.maxItemsPerNamespace(), settings.ttl());
	}

}
