package dev.agcore.autoconfigure.memory.jdbc;

import java.util.Locale;
import java.util.function.Function;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.MemoryProperties.SchemaInitialization;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration.JdbcMemoryDatabase;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;

/**
 * Creates and checks the tables of a JDBC store in the database of the JDBC memory stores,
 * as {@code agent.memory.jdbc.initialize-schema} and {@code agent.memory.jdbc.platform}
 * say, for the auto-configurations of the memory, run and checkpoint stores. Its errors
 * name the property to set.
 *
 * @param schema the store's tables
 * @param unsupportedPlatform the error when the platform is not one of
 * {@link JdbcSchema#PLATFORMS}
 * @param unreachable the warning logged when the database cannot be reached to check the
 * tables; {@code null} not to check them
 * @since 0.1.0
 */
public record JdbcSchemaInitializer(JdbcSchema schema,
		Function<String, AgentConfigurationException> unsupportedPlatform, @Nullable String unreachable) {

	private static final Logger logger = LoggerFactory.getLogger(JdbcSchemaInitializer.class);

	/**
	 * Initialise a schema that has a script for each of {@link JdbcSchema#PLATFORMS}, and
	 * for no other.
	 * @param schema the store's tables
	 * @param name what its tables are called, such as {@code memory}
	 * @param unreachable the warning logged when the database cannot be reached to check
	 * the tables; {@code null} not to check them
	 * @return the initializer
	 */
	public static JdbcSchemaInitializer withScripts(JdbcSchema schema, String name, @Nullable String unreachable) {
		return new JdbcSchemaInitializer(schema,
				(platform) -> new AgentConfigurationException("There is no " + name + " schema script for the database "
						+ "platform '" + platform + "' (agent.memory.jdbc.platform); scripts exist for "
						+ String.join(", ", JdbcSchema.PLATFORMS),
						"Set agent.memory.jdbc.platform to a compatible one, or create the tables yourself and set "
								+ "agent.memory.jdbc.initialize-schema=never."),
				unreachable);
	}

	/**
	 * Create the tables when {@code agent.memory.jdbc.initialize-schema} says so, then
	 * check that they exist (unless there is no {@link #unreachable} warning): a missing
	 * table fails startup, a database that is down does not.
	 * @param database the database and table prefix
	 * @param jdbc the JDBC memory properties
	 * @return the platform, as set by {@code agent.memory.jdbc.platform} or detected to
	 * create the tables; {@code null} if neither
	 * @throws AgentConfigurationException if the platform is not supported, cannot be told,
	 * or a table is missing
	 */
	public @Nullable String initialize(JdbcMemoryDatabase database, MemoryProperties.Jdbc jdbc) {
		DataSource dataSource = database.dataSource();
		String platform = (jdbc.getPlatform() != null) ? jdbc.getPlatform().toLowerCase(Locale.ROOT) : null;
		if (initialize(jdbc.getInitializeSchema(), dataSource)) {
			platform = (platform != null) ? platform : detectPlatform(dataSource);
			if (!JdbcSchema.PLATFORMS.contains(platform)) {
				throw this.unsupportedPlatform.apply(platform);
			}
			this.schema.create(dataSource, platform, database.tablePrefix());
		}
		if (this.unreachable != null) {
			verify(dataSource, database.tablePrefix(), jdbc.getInitializeSchema(), this.unreachable);
		}
		return platform;
	}

	private static String detectPlatform(DataSource dataSource) {
		try {
			return JdbcSchema.detectPlatform(dataSource);
		}
		catch (MemoryException ex) {
			throw new AgentConfigurationException(ex.getMessage(),
					"Check spring.datasource.url and that the database is up, set agent.memory.jdbc.platform, or set "
							+ "agent.memory.jdbc.initialize-schema=never and create the tables with your migrations.");
		}
	}

	private void verify(DataSource dataSource, String prefix, SchemaInitialization mode, String unreachable) {
		try {
			if (!this.schema.verify(dataSource, prefix)) {
				logger.warn(unreachable);
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
