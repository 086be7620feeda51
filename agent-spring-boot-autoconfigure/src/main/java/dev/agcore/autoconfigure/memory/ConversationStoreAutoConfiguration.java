package dev.agcore.autoconfigure.memory;

import java.time.Clock;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.PropertyChecks;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryBytes;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ConversationStore}
 * and the {@link KeyValueStore} behind the tools' session and long-term memory: in-memory
 * stores unless {@code agent.memory.store} names a persistent one (whose
 * auto-configuration runs first) or the application defines its own. The stores are
 * bounded by {@link MemoryProperties agent.memory.*}, and share one cap of the bytes they
 * hold ({@code agent.memory.in-memory.max-bytes}), so that a session is evicted whole.
 * <p>
 * {@link SessionOwners}, which every entry into a session checks, are kept in the one
 * {@link KeyValueStore} of the application (the unique or {@code @Primary} bean): with
 * none or several, or with a combination in which an owner record could go before its
 * conversation, startup fails saying what to change ({@link SessionOwnerStore}).
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(MemoryProperties.class)
public final class ConversationStoreAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	InMemoryBytes inMemoryBytes(MemoryProperties properties) {
		DataSize maxBytes = properties.getInMemory().getMaxBytes();
		if (maxBytes == null) {
			return InMemoryBytes.ofHeapShare();
		}
		if (maxBytes.toBytes() < InMemoryBytes.MIN_MAX_BYTES) {
			throw new AgentConfigurationException(
					"agent.memory.in-memory.max-bytes is " + maxBytes + ", less than the "
							+ DataSize.ofBytes(InMemoryBytes.MIN_MAX_BYTES).toKilobytes() + "KB a session needs",
					"Set agent.memory.in-memory.max-bytes to at least 64KB (e.g. 64MB), or remove it to use a tenth "
							+ "of the heap.");
		}
		return InMemoryBytes.of(maxBytes.toBytes());
	}

	@Bean
	@ConditionalOnMissingBean
	SessionOwners sessionOwners(ObjectProvider<KeyValueStore> keyValueStores,
			ObjectProvider<ConversationStore> conversationStores, MemoryProperties properties) {
		KeyValueStore store = SessionOwnerStore.require(keyValueStores, "Session owners");
		SessionOwnerStore.requireOwnersOutliveConversations(store, conversationStores.getIfUnique(), properties);
		return SessionOwners.of(store);
	}

	@Bean
	@ConditionalOnMissingBean(ConversationStore.class)
	InMemoryConversationStore conversationStore(MemoryProperties properties, InMemoryBytes bytes) {
		requireInMemory(properties);
		Integer maxSessions = properties.getMaxSessions();
		return new InMemoryConversationStore(
				PropertyChecks.atLeastOne("agent.memory.max-sessions",
						(maxSessions != null) ? maxSessions : InMemoryConversationStore.DEFAULT_MAX_SESSIONS),
				PropertyChecks.atLeastOne("agent.memory.max-messages-per-session", properties.getMaxMessagesPerSession()),
				PropertyChecks.notNegative("agent.memory.session-ttl", properties.getSessionTtl()), Clock.systemUTC(),
				bytes);
	}

	@Bean
	@ConditionalOnMissingBean(KeyValueStore.class)
	InMemoryKeyValueStore keyValueStore(MemoryProperties properties, InMemoryBytes bytes) {
		requireInMemory(properties);
		MemoryProperties.LongTerm longTerm = properties.getLongTerm();
		return new InMemoryKeyValueStore(
				PropertyChecks.atLeastOne("agent.memory.long-term.max-items-per-namespace", longTerm.getMaxItemsPerNamespace()),
				PropertyChecks.notNegative("agent.memory.long-term.ttl", longTerm.getTtl()), Clock.systemUTC(), bytes);
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

}
