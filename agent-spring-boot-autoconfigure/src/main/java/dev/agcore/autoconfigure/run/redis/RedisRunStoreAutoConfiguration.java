package dev.agcore.autoconfigure.run.redis;

import java.time.Clock;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.redis.RedisMemoryAutoConfiguration;
import dev.agcore.run.RunStore;
import dev.agcore.run.redis.RedisRunStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the Redis {@link RunStore} when
 * {@code agent.memory.store=redis}: background runs share the application's reactive
 * Redis connection and the key prefix {@code agent.memory.redis.key-prefix} with the
 * conversations. Runs before the runs auto-configuration, so its store replaces the
 * in-memory one.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = RedisMemoryAutoConfiguration.class,
		afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration" },
		beforeName = "dev.agcore.autoconfigure.run.RunAutoConfiguration")
@ConditionalOnClass({ ReactiveStringRedisTemplate.class, RedisRunStore.class })
@ConditionalOnProperty(name = "agent.memory.store", havingValue = "redis")
@EnableConfigurationProperties(MemoryProperties.class)
public final class RedisRunStoreAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(RunStore.class)
	RedisRunStore runStore(MemoryProperties properties,
			ObjectProvider<ReactiveRedisConnectionFactory> connectionFactory) {
		ReactiveRedisConnectionFactory factory = connectionFactory.getIfAvailable();
		if (factory == null) {
			throw new AgentConfigurationException(
					"agent.memory.store is 'redis' but there is no reactive Redis connection for background runs "
							+ "(no ReactiveRedisConnectionFactory bean)",
					"Add spring-boot-starter-data-redis (with its default Lettuce client; Jedis has no reactive API) "
							+ "and configure the connection (spring.data.redis.host, spring.data.redis.port), or set "
							+ "agent.memory.store to 'in-memory'.");
		}
		// the system clock: every instance's clock must be synchronized (NTP) for leases
		return new RedisRunStore(new ReactiveStringRedisTemplate(factory), properties.getRedis().getKeyPrefix(),
				Clock.systemUTC());
	}

}
