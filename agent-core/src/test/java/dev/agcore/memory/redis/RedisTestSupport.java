package dev.agcore.memory.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.memory.ServiceAvailability;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;

/**
 * Connections to the local Redis for the store tests: each one its own connection
 * factory (another application instance), with short timeouts and quick reconnects so an
 * outage test stays fast, all closed and the test's keys deleted at the end. Public for
 * the Redis store tests of other packages.
 */
public final class RedisTestSupport implements AutoCloseable {

	public static final String HOST = "127.0.0.1";

	public static final int PORT = 6379;

	private final String keyPrefix;

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<ClientResources> resources = new ArrayList<>();

	public RedisTestSupport(String keyPrefix) {
		ServiceAvailability.require("Redis", HOST, PORT);
		this.keyPrefix = keyPrefix;
	}

	public String keyPrefix() {
		return this.keyPrefix;
	}

	/** A template over a new connection to Redis. */
	public ReactiveStringRedisTemplate template() {
		return template(PORT);
	}

	/** A template over a new connection to the given local port (Redis or a proxy to it). */
	public ReactiveStringRedisTemplate template(int port) {
		ClientResources clientResources = ClientResources.builder()
			.reconnectDelay(Delay.constant(Duration.ofMillis(100)))
			.build();
		this.resources.add(clientResources);
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(2))
			.clientResources(clientResources)
			.clientOptions(ClientOptions.builder().build())
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(HOST, port),
				client);
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return new ReactiveStringRedisTemplate(factory);
	}

	@Override
	public void close() {
		if (!this.factories.isEmpty()) {
			ReactiveStringRedisTemplate cleaner = new ReactiveStringRedisTemplate(this.factories.get(0));
			cleaner.scan(ScanOptions.scanOptions().match(this.keyPrefix + "*").build())
				.flatMap(cleaner::delete)
				.then()
				.block(Duration.ofSeconds(30));
		}
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.resources.forEach((clientResources) -> clientResources.shutdown());
	}

}
