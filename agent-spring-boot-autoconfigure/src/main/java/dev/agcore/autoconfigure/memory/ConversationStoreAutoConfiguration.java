package dev.agcore.autoconfigure.memory;

import java.time.Clock;
import java.time.Duration;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ConversationStore}
 * and the {@link KeyValueStore} behind the tools' session and long-term memory: in-memory
 * stores unless {@code agent.memory.store} names a persistent one (whose
 * auto-configuration runs first) or the application defines its own. The stores are
 * bounded by {@link MemoryProperties agent.memory.*}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(MemoryProperties.class)
public final class ConversationStoreAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ConversationStore.class)
	InMemoryConversationStore conversationStore(MemoryProperties properties) {
		requireInMemory(properties);
		Integer maxSessions = properties.getMaxSessions();
		return new InMemoryConversationStore(
				atLeastOne("agent.memory.max-sessions",
						(maxSessions != null) ? maxSessions : InMemoryConversationStore.DEFAULT_MAX_SESSIONS),
				atLeastOne("agent.memory.max-messages-per-session", properties.getMaxMessagesPerSession()),
				notNegative("agent.memory.session-ttl", properties.getSessionTtl()), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean(KeyValueStore.class)
	InMemoryKeyValueStore keyValueStore(MemoryProperties properties) {
		requireInMemory(properties);
		MemoryProperties.LongTerm longTerm = properties.getLongTerm();
		return new InMemoryKeyValueStore(
				atLeastOne("agent.memory.long-term.max-items-per-namespace", longTerm.getMaxItemsPerNamespace()),
				notNegative("agent.memory.long-term.ttl", longTerm.getTtl()), Clock.systemUTC());
	}

	/**
	 * A persistent store was asked for, but its auto-configuration did not apply: rather
	 * than keep conversations in memory and lose them on restart, say what is missing.
	 */
	private static void requireInMemory(MemoryProperties properties) {
		switch (properties.getStore()) {
			case IN_MEMORY -> {
			}
			case JDBC -> throw new AgentConfigurationException(
					"agent.memory.store is 'jdbc' but no JDBC store could be created",
					"Add spring-boot-starter-jdbc (or spring-boot-starter-data-jdbc) and a database driver, and "
							+ "configure a DataSource (spring.datasource.url), or set agent.memory.store to 'in-memory'.");
			case REDIS -> throw new AgentConfigurationException(
					"agent.memory.store is 'redis' but no Redis store could be created",
					"Add spring-boot-starter-data-redis and configure the connection (spring.data.redis.host, "
							+ "spring.data.redis.port), or set agent.memory.store to 'in-memory'.");
		}
	}

	/**
	 * Check a bound that must be at least 1, naming the property when it is not; for the
	 * persistent stores' auto-configurations too.
	 * @param property the property
	 * @param value its value
	 * @return the value
	 */
	public static int atLeastOne(String property, int value) {
		if (value < 1) {
			throw new AgentConfigurationException(property + " must be at least 1 (was " + value + ")",
					"Set " + property + " to a positive number, or remove it to use the default.");
		}
		return value;
	}

	/**
	 * Check a duration that must not be negative, naming the property when it is.
	 * @param property the property
	 * @param value its value
	 * @return the value
	 */
	public static Duration notNegative(String property, Duration value) {
		if (value.isNegative()) {
			throw new AgentConfigurationException(property + " must not be negative (was " + value + ")",
					"Set " + property + " to a positive duration, 0 for no limit, or remove it to use the default.");
		}
		return value;
	}

	/**
	 * Check that a duration property is positive.
	 * @param property the property, for the message
	 * @param value its value
	 * @return the value
	 */
	public static Duration positive(String property, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new AgentConfigurationException(property + " must be positive (was " + value + ")",
					"Set " + property + " to a positive duration, or remove it to use the default.");
		}
		return value;
	}

}
