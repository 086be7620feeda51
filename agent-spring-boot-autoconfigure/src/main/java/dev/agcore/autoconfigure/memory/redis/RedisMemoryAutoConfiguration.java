package dev.agcore.autoconfigure.memory.redis;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.redis.RedisConversationStore;
import dev.agcore.memory.redis.RedisKeyValueStore;

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

import static dev.agcore.autoconfigure.support.PropertyChecks.atLeastOne;
import static dev.agcore.autoconfigure.support.PropertyChecks.notNegative;
import static dev.agcore.autoconfigure.support.PropertyChecks.positive;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the Redis {@link ConversationStore}
 * and {@link KeyValueStore} when {@code agent.memory.store=redis}: on the application's
 * reactive Redis connection (Spring Boot's, configured by {@code spring.data.redis.*}),
 * bounded by {@link MemoryProperties agent.memory.*}. Runs before
 * {@link ConversationStoreAutoConfiguration}, so its stores replace the in-memory ones.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = ConversationStoreAutoConfiguration.class,
		afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration" })
@ConditionalOnClass(ReactiveStringRedisTemplate.class)
@ConditionalOnProperty(name = "agent.memory.store", havingValue = "redis")
@EnableConfigurationProperties(MemoryProperties.class)
public final class RedisMemoryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ConversationStore.class)
	RedisConversationStore conversationStore(MemoryProperties properties,
			ObjectProvider<ReactiveRedisConnectionFactory> connectionFactory) {
		Integer limit = properties.getMaxSessions();
		// no limit unless set: sessions expire by their time-to-live
		int maxSessions = (limit != null) ? atLeastOne("agent.memory.max-sessions", limit) : 0;
		return new RedisConversationStore(template(connectionFactory), properties.getRedis().getKeyPrefix(),
				maxSessions,
				atLeastOne("agent.memory.max-messages-per-session", properties.getMaxMessagesPerSession()),
				notNegative("agent.memory.session-ttl", properties.getSessionTtl()),
				positive("agent.memory.claim-timeout", properties.getClaimTimeout()));
	}

	@Bean
	@ConditionalOnMissingBean(KeyValueStore.class)
	RedisKeyValueStore keyValueStore(MemoryProperties properties,
			ObjectProvider<ReactiveRedisConnectionFactory> connectionFactory) {
		MemoryProperties.LongTerm longTerm = properties.getLongTerm();
		return new RedisKeyValueStore(template(connectionFactory), properties.getRedis().getKeyPrefix(),
				atLeastOne("agent.memory.long-term.max-items-per-namespace", longTerm.getMaxItemsPerNamespace()),
				notNegative("agent.memory.long-term.ttl", longTerm.getTtl()));
	}

	private static ReactiveStringRedisTemplate template(
			ObjectProvider<ReactiveRedisConnectionFactory> connectionFactory) {
		ReactiveRedisConnectionFactory factory = connectionFactory.getIfAvailable();
		if (factory == null) {
			throw new AgentConfigurationException(
					"agent.memory.store is 'redis' but there is no reactive Redis connection "
							+ "(no ReactiveRedisConnectionFactory bean)",
					"Add spring-boot-starter-data-redis (with its default Lettuce client; Jedis has no reactive API) "
							+ "and configure the connection (spring.data.redis.host, spring.data.redis.port), or set "
							+ "agent.memory.store to 'in-memory'.");
		}
		return new ReactiveStringRedisTemplate(factory);
	}

}
