package dev.agcore.autoconfigure.memory.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.memory.jdbc.JdbcKeyValueStore;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.memory.jdbc.JdbcSchema;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;

import static dev.agcore.autoconfigure.support.PropertyChecks.atLeastOne;
import static dev.agcore.autoconfigure.support.PropertyChecks.notNegative;
import static dev.agcore.autoconfigure.support.PropertyChecks.positive;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the JDBC stores when
 * {@code agent.memory.store=jdbc}: conversations, paused turns and memory are kept in the
 * application's {@link DataSource}, shared by all its instances. Creates the tables when
 * {@code agent.memory.jdbc.initialize-schema} says so and purges expired sessions and
 * values every {@code agent.memory.jdbc.purge-interval}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = ConversationStoreAutoConfiguration.class,
		afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ JdbcClient.class, EmbeddedDatabaseConnection.class })
@ConditionalOnProperty(name = "agent.memory.store", havingValue = "jdbc")
@EnableConfigurationProperties(MemoryProperties.class)
public final class JdbcMemoryAutoConfiguration {

	private static final JdbcSchemaInitializer SCHEMA = JdbcSchemaInitializer.withScripts(JdbcMemorySchema.SCHEMA,
			"memory", "The memory database cannot be reached at startup; conversations fail with "
					+ "'memory_unavailable' until it is back");

	@Bean
	@ConditionalOnMissingBean
	JdbcMemoryDatabase jdbcMemoryDatabase(ObjectProvider<DataSource> dataSource, MemoryProperties properties) {
		DataSource database = dataSource.getIfUnique();
		if (database == null) {
			throw new AgentConfigurationException(
					"agent.memory.store is 'jdbc' but the application has no single DataSource",
					"Configure a database with spring.datasource.url (and its driver on the classpath), or set "
							+ "agent.memory.store to 'in-memory'.");
		}
		MemoryProperties.Jdbc jdbc = properties.getJdbc();
		String prefix = jdbc.getTablePrefix();
		try {
			JdbcSchema.validatePrefix(prefix);
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException("agent.memory.jdbc.table-prefix '" + prefix
					+ "' may hold only letters, digits and underscores",
					"Set agent.memory.jdbc.table-prefix to a name such as 'agent_'.");
		}
		JdbcMemoryDatabase memory = new JdbcMemoryDatabase(database, prefix);
		SCHEMA.initialize(memory, jdbc);
		return memory;
	}

	@Bean
	@ConditionalOnMissingBean(ConversationStore.class)
	JdbcConversationStore conversationStore(JdbcMemoryDatabase database, MemoryProperties properties) {
		Integer maxSessions = properties.getMaxSessions();
		return JdbcConversationStore.builder(database.dataSource())
			.tablePrefix(database.tablePrefix())
			.maxMessagesPerSession(atLeastOne("agent.memory.max-messages-per-session",
					properties.getMaxMessagesPerSession()))
			.maxSessions((maxSessions != null) ? atLeastOne("agent.memory.max-sessions", maxSessions) : 0)
			.sessionTtl(notNegative("agent.memory.session-ttl", properties.getSessionTtl()))
			.claimTimeout(positive("agent.memory.claim-timeout", properties.getClaimTimeout()))
			.clock(Clock.systemUTC())
			.build();
	}

	@Bean
	@ConditionalOnMissingBean(KeyValueStore.class)
	JdbcKeyValueStore keyValueStore(JdbcMemoryDatabase database, MemoryProperties properties) {
		MemoryProperties.LongTerm longTerm = properties.getLongTerm();
		return JdbcKeyValueStore.builder(database.dataSource())
			.tablePrefix(database.tablePrefix())
			.maxItemsPerNamespace(
					atLeastOne("agent.memory.long-term.max-items-per-namespace", longTerm.getMaxItemsPerNamespace()))
			.ttl(notNegative("agent.memory.long-term.ttl", longTerm.getTtl()))
			.clock(Clock.systemUTC())
			.build();
	}

	@Bean
	@ConditionalOnMissingBean
	JdbcMemoryPurger jdbcMemoryPurger(ObjectProvider<JdbcConversationStore> conversations,
			ObjectProvider<JdbcKeyValueStore> items, ObjectProvider<JdbcMemoryPurger.Purge> others,
			MemoryProperties properties) {
		List<JdbcMemoryPurger.Purge> purges = new ArrayList<>();
		conversations.ifUnique((store) -> purges.add(new JdbcMemoryPurger.Purge("sessions", store::purgeExpired)));
		items.ifUnique((store) -> purges.add(new JdbcMemoryPurger.Purge("memory items", store::purgeExpired)));
		// other stores on this database (workflow checkpoints) contribute their own purge
		others.orderedStream().forEach(purges::add);
		return new JdbcMemoryPurger(positive("agent.memory.jdbc.purge-interval", properties.getJdbc().getPurgeInterval()),
				purges);
	}

	/**
	 * The database of the JDBC stores, with its tables created when asked for.
	 *
	 * @param dataSource the database
	 * @param tablePrefix the prefix of the tables
	 */
	public record JdbcMemoryDatabase(DataSource dataSource, String tablePrefix) {

	}

}
