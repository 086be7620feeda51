package dev.agcore.autoconfigure.run.jdbc;

import java.util.Locale;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.MemoryProperties.SchemaInitialization;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration.JdbcMemoryDatabase;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.run.RunStore;
import dev.agcore.run.jdbc.JdbcRunSchema;
import dev.agcore.run.jdbc.JdbcRunStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
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

	private static final Logger logger = LoggerFactory.getLogger(JdbcRunStoreAutoConfiguration.class);

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(RunStore.class)
	JdbcRunStore jdbcRunStore(JdbcMemoryDatabase database, MemoryProperties properties) {
		DataSource dataSource = database.dataSource();
		MemoryProperties.Jdbc jdbc = properties.getJdbc();
		String platform = (jdbc.getPlatform() != null) ? jdbc.getPlatform().toLowerCase(Locale.ROOT) : null;
		if (initialize(jdbc.getInitializeSchema(), dataSource)) {
			platform = (platform != null) ? platform : detectPlatform(dataSource);
			if (!JdbcRunSchema.PLATFORMS.contains(platform)) {
				throw new AgentConfigurationException("Background runs cannot be kept in a '" + platform
						+ "' database (agent.memory.jdbc.platform); the JDBC run store works on "
						+ String.join(", ", JdbcRunSchema.PLATFORMS),
						"Use PostgreSQL (or H2 or MariaDB for development), or define your own RunStore bean.");
			}
			JdbcRunSchema.create(dataSource, platform, database.tablePrefix());
		}
		verifySchema(dataSource, database.tablePrefix(), jdbc.getInitializeSchema());
		JdbcRunStore.Builder builder = JdbcRunStore.builder(dataSource).tablePrefix(database.tablePrefix());
		if (platform != null) {
			try {
				builder.platform(platform);
			}
			catch (MemoryException ex) {
				throw new AgentConfigurationException(ex.getMessage() + " (agent.memory.jdbc.platform)",
						"Use PostgreSQL (or H2 or MariaDB for development), or define your own RunStore bean.");
			}
		}
		return builder.build();
	}

	private static String detectPlatform(DataSource dataSource) {
		try {
			return JdbcMemorySchema.detectPlatform(dataSource);
		}
		catch (MemoryException ex) {
			throw new AgentConfigurationException(ex.getMessage(),
					"Check spring.datasource.url and that the database is up, set agent.memory.jdbc.platform, or set "
							+ "agent.memory.jdbc.initialize-schema=never and create the tables with your migrations.");
		}
	}

	private static void verifySchema(DataSource dataSource, String prefix, SchemaInitialization mode) {
		try {
			if (!JdbcRunSchema.verify(dataSource, prefix)) {
				logger.warn("The run database cannot be reached at startup; background runs fail with "
						+ "'memory_unavailable' until it is back");
			}
		}
		catch (MemoryException ex) {
			throw new AgentConfigurationException(ex.getMessage(), (mode == SchemaInitialization.ALWAYS)
					? "Check that the database user may create tables, or create them with your migrations."
					: "Set agent.memory.jdbc.initialize-schema=always (agent.memory.jdbc.initialize-schema is '"
							+ mode.name().toLowerCase(Locale.ROOT) + "'), or create the tables with your migrations.");
		}
	}

	private static boolean initialize(SchemaInitialization mode, DataSource dataSource) {
		return switch (mode) {
			case ALWAYS -> true;
			case NEVER -> false;
			case EMBEDDED -> EmbeddedDatabaseConnection.isEmbedded(dataSource);
		};
	}

}
