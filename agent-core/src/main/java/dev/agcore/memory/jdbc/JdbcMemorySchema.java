package dev.agcore.memory.jdbc;

import java.util.List;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryException;

/**
 * The tables of the JDBC memory stores, as one script per database platform shipped in
 * this jar ({@code dev/agcore/memory/jdbc/schema-<platform>.sql}). Every statement
 * creates only what is missing, so running the script again, or from two instances, is
 * harmless. Apps that manage their schema with Flyway or Liquibase copy the script into a
 * migration instead, with {@code ${prefix}} replaced by their table prefix. The methods
 * here are shortcuts to {@link #SCHEMA} and to {@link JdbcSchema}'s static ones.
 *
 * @since 0.1.0
 */
public final class JdbcMemorySchema {

	/** The memory tables and their scripts. */
	public static final JdbcSchema SCHEMA = new JdbcSchema("memory", "JDBC memory stores", "dev/agcore/memory/jdbc",
			List.of("session", "message", "memory_item"));

	/** The platforms a script is shipped for. */
	public static final List<String> PLATFORMS = JdbcSchema.PLATFORMS;

	/** The table prefix used when none is given. */
	public static final String DEFAULT_PREFIX = JdbcSchema.DEFAULT_PREFIX;

	private JdbcMemorySchema() {
	}

	/**
	 * Check a table prefix ({@link JdbcSchema#validatePrefix(String)}).
	 * @param prefix the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException if it holds anything but letters, digits and
	 * underscores
	 */
	public static String validatePrefix(String prefix) {
		return JdbcSchema.validatePrefix(prefix);
	}

	/**
	 * Tell the platform of a database from its metadata
	 * ({@link JdbcSchema#detectPlatform(DataSource)}).
	 * @param dataSource the database
	 * @return {@code postgresql}, {@code h2}, {@code mariadb}, {@code mysql} or the product
	 * name in lower case
	 */
	public static String detectPlatform(DataSource dataSource) {
		return JdbcSchema.detectPlatform(dataSource);
	}

	/**
	 * Check that the memory tables exist ({@link JdbcSchema#verify(DataSource, String)}).
	 * @param dataSource the database
	 * @param prefix the table prefix
	 * @return false if the database could not be reached, true if the tables are there
	 * @throws MemoryException if a table is missing
	 */
	public static boolean verify(DataSource dataSource, String prefix) {
		return SCHEMA.verify(dataSource, prefix);
	}

	/**
	 * Return the statements of a platform's script with the prefix in place.
	 * @param platform the platform, one of {@link #PLATFORMS}
	 * @param prefix the table prefix
	 * @return the statements, in order
	 */
	public static List<String> statements(String platform, String prefix) {
		return SCHEMA.statements(platform, prefix);
	}

	/**
	 * Create the memory tables and indexes that are missing.
	 * @param dataSource the database
	 * @param platform the platform, one of {@link #PLATFORMS}
	 * @param prefix the table prefix
	 */
	public static void create(DataSource dataSource, String platform, String prefix) {
		SCHEMA.create(dataSource, platform, prefix);
	}

	/**
	 * Drop the memory tables, for tests and for removing the stores.
	 * @param dataSource the database
	 * @param prefix the table prefix
	 */
	public static void drop(DataSource dataSource, String prefix) {
		SCHEMA.drop(dataSource, prefix);
	}

}
