package dev.agcore.autoconfigure.run.jdbc;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration.JdbcMemoryDatabase;
import dev.agcore.autoconfigure.memory.jdbc.JdbcSchemaInitializer;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcSchema;
import dev.agcore.run.RunStore;
import dev.agcore.run.jdbc.JdbcRunStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@link JdbcRunStore} when
 * {@code agent.memory.store=jdbc}: background runs are queued and their events kept in
 * the database of the JDBC memory stores, under the same table prefix, their tables
 * created by the same rule ({@code agent.memory.jdbc.initialize-schema}). The listening
 * connection closes with the context.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = JdbcMemoryAutoConfiguration.class,
		beforeName = "dev.agcore.autoconfigure.run.RunAutoConfiguration")
@ConditionalOnClass(JdbcRunStore.class)
@ConditionalOnProperty(name = "agent.memory.store", havingValue = "jdbc")
@ConditionalOnBean(JdbcMemoryDatabase.class)
public final class JdbcRunStoreAutoConfiguration {

	private static final String ACTION = "Use PostgreSQL (or H2 or MariaDB for development), or define your own "
			+ "RunStore bean.";

	private static final JdbcSchemaInitializer SCHEMA = new JdbcSchemaInitializer(JdbcRunStore.SCHEMA,
			(platform) -> new AgentConfigurationException("Background runs cannot be kept in a '" + platform
					+ "' database (agent.memory.jdbc.platform); the JDBC run store works on "
					+ String.join(", ", JdbcSchema.PLATFORMS), ACTION),
			"The run database cannot be reached at startup; background runs fail with 'memory_unavailable' until it "
					+ "is back");

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(RunStore.class)
	JdbcRunStore jdbcRunStore(JdbcMemoryDatabase database, MemoryProperties properties) {
		String platform = SCHEMA.initialize(database, properties.getJdbc());
		JdbcRunStore.Builder builder = JdbcRunStore.builder(database.dataSource()).tablePrefix(database.tablePrefix());
		if (platform != null) {
			try {
				builder.platform(platform);
			}
			catch (MemoryException ex) {
				throw new AgentConfigurationException(ex.getMessage() + " (agent.memory.jdbc.platform)", ACTION);
			}
		}
		return builder.build();
	}

}
