package dev.agcore.memory.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryException;

/**
 * The tables of the JDBC stores, as one script per database platform shipped in this jar
 * ({@code dev/agcore/memory/jdbc/schema-<platform>.sql}). Every statement creates only
 * what is missing, so running the script again, or from two instances, is harmless. Apps
 * that manage their schema with Flyway or Liquibase copy the script into a migration
 * instead, with {@code ${prefix}} replaced by their table prefix.
 *
 * @since 0.1.0
 */
public final class JdbcMemorySchema {

	/** The platforms a script is shipped for. */
	public static final List<String> PLATFORMS = List.of("postgresql", "h2", "mariadb");

	/** The table prefix used when none is given. */
	public static final String DEFAULT_PREFIX = "agent_";

	private static final Pattern PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");

	private JdbcMemorySchema() {
	}

	/**
	 * Check a table prefix: it is put into SQL as it is, so it may hold only letters,
	 * digits and underscores.
	 * @param prefix the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException if it holds anything else
	 */
	public static String validatePrefix(String prefix) {
		if (!PREFIX.matcher(prefix).matches()) {
			throw new IllegalArgumentException("The table prefix '" + prefix + "' is not valid: use letters, digits "
					+ "and underscores only (at most 40, not starting with a digit), for example 'agent_'");
		}
		return prefix;
	}

	/**
	 * Tell the platform of a database from its metadata.
	 * @param dataSource the database
	 * @return {@code postgresql}, {@code h2}, {@code mariadb}, {@code mysql} or the product
	 * name in lower case
	 */
	public static String detectPlatform(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
			for (String known : List.of("postgresql", "h2", "mariadb", "mysql")) {
				if (product.contains(known)) {
					return known;
				}
			}
			return product.replace(' ', '_');
		}
		catch (SQLException ex) {
			if (isConnectionFailure(ex)) {
				throw new MemoryException("Cannot connect to the memory database to create its tables ("
						+ ex.getClass().getSimpleName() + ", SQL state " + ex.getSQLState()
						+ "): check spring.datasource.url and that the database is up, or set "
						+ "agent.memory.jdbc.initialize-schema=never", ex);
			}
			throw new MemoryException("Cannot tell the platform of the memory database (" + ex.getClass().getSimpleName()
					+ ", SQL state " + ex.getSQLState() + "): set agent.memory.jdbc.platform", ex);
		}
	}

	/**
	 * Check that the stores' tables exist, so that a missing schema is reported at startup
	 * rather than by the first turn. A database that cannot be reached passes: the stores
	 * report it when used, and work once it is back.
	 * @param dataSource the database
	 * @param prefix the table prefix
	 * @return false if the database could not be reached, true if the tables are there
	 * @throws MemoryException if a table is missing
	 */
	public static boolean verify(DataSource dataSource, String prefix) {
		validatePrefix(prefix);
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			for (String table : List.of("session", "message", "memory_item")) {
				try {
					statement.executeQuery("SELECT 1 FROM " + prefix + table + " WHERE 1 = 0").close();
				}
				catch (SQLException ex) {
					if (isConnectionFailure(ex)) {
						throw ex;
					}
					throw new MemoryException("The table " + prefix + table + " of the JDBC memory stores does not "
							+ "exist or cannot be read (SQL state " + ex.getSQLState() + "): create the schema (set "
							+ "agent.memory.jdbc.initialize-schema=always, or run the script "
							+ "dev/agcore/memory/jdbc/schema-<platform>.sql through your migrations)", ex);
				}
			}
			return true;
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static boolean isConnectionFailure(SQLException ex) {
		String state = ex.getSQLState();
		return ex instanceof java.sql.SQLTransientConnectionException
				|| ex instanceof java.sql.SQLNonTransientConnectionException || (state != null && state.startsWith("08"));
	}

	/**
	 * Return the statements of a platform's script with the prefix in place.
	 * @param platform the platform, one of {@link #PLATFORMS}
	 * @param prefix the table prefix
	 * @return the statements, in order
	 */
	public static List<String> statements(String platform, String prefix) {
		validatePrefix(prefix);
		return JdbcOperations.statements(script(platform).replace("${prefix}", prefix));
	}

	/**
	 * Create the tables and indexes that are missing.
	 * @param dataSource the database
	 * @param platform the platform, one of {@link #PLATFORMS}
	 * @param prefix the table prefix
	 */
	public static void create(DataSource dataSource, String platform, String prefix) {
		List<String> statements = statements(platform, prefix);
		try {
			JdbcOperations.execute(dataSource, statements);
		}
		catch (SQLException ex) {
			// another instance may have created the same table at the same moment: once more
			try {
				JdbcOperations.execute(dataSource, statements);
			}
			catch (SQLException again) {
				throw new MemoryException("Cannot create the memory tables (prefix '" + prefix + "') with "
						+ "schema-" + platform + ".sql: " + again.getMessage(), again);
			}
		}
	}

	/**
	 * Drop the tables, for tests and for removing the stores.
	 * @param dataSource the database
	 * @param prefix the table prefix
	 */
	public static void drop(DataSource dataSource, String prefix) {
		validatePrefix(prefix);
		try {
			JdbcOperations.execute(dataSource, List.of("DROP TABLE IF EXISTS " + prefix + "message", "DROP TABLE IF EXISTS " + prefix
					+ "session", "DROP TABLE IF EXISTS " + prefix + "memory_item"));
		}
		catch (SQLException ex) {
			throw new MemoryException("Cannot drop the memory tables (prefix '" + prefix + "'): " + ex.getMessage(), ex);
		}
	}

	private static String script(String platform) {
		String name = "schema-" + platform.toLowerCase(Locale.ROOT) + ".sql";
		try (InputStream in = JdbcMemorySchema.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new MemoryException("There is no memory schema script for the database platform '" + platform
						+ "' (scripts exist for " + String.join(", ", PLATFORMS) + "): set agent.memory.jdbc.platform to "
						+ "one of them if the database is compatible, or create the tables yourself and set "
						+ "agent.memory.jdbc.initialize-schema=never");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new MemoryException("Cannot read the memory schema script " + name + ": " + ex.getMessage(), ex);
		}
	}

}
