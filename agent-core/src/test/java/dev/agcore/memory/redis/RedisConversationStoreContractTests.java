package dev.agcore.memory.redis;

import java.time.Duration;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.ConversationStoreContract;
import dev.agcore.memory.StoreOutage;
import dev.agcore.memory.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on the local Redis; the second instance has its own connection.
 */
class RedisConversationStoreContractTests extends ConversationStoreContract {

	private static RedisTestSupport redis;

	private static TcpProxy proxy;

	@BeforeAll
	static void connect() {
		redis = new RedisTestSupport("agcore-test:conv-contract:" + ProcessHandle.current().pid() + ":");
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
	protected ConversationStore createStore(Settings settings) {
		return store(redis.template(), settings);
	}

	@Override
	protected StoreOutage<ConversationStore> outage() {
		ConversationStore store = store(redis.template(proxy.port()), Settings.DEFAULT);
		return new StoreOutage<>(store, proxy);
	}

	private static ConversationStore store(org.springframework.data.redis.core.ReactiveStringRedisTemplate template,
			Settings settings) {
		return new RedisConversationStore(template, redis.keyPrefix(), 0, settings.maxMessagesPerSession(),
				settings.sessionTtl(), Duration.ofMinutes(10));
	}

}
