package dev.agcore.run.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.memory.jdbc.JdbcOperations;

/**
 * The tables of the {@link JdbcRunStore}, {@code <prefix>runs} and
 * {@code <prefix>run_events}, as one script per database platform shipped in this jar
 * ({@code dev/agcore/run/jdbc/schema-<platform>.sql}). Like
 * {@link JdbcMemorySchema}'s, every statement creates only what is missing; apps that
 * manage their schema with Flyway or Liquibase copy the script into a migration with
 * {@code ${prefix}} replaced.
 *
 * @since 0.1.0
 */
public final class JdbcRunSchema {

	/** The platforms a script is shipped for. */
	public static final List<String> PLATFORMS = List.of("postgresql", "h2", "mariadb");

	/** The tables, without their prefix. */
	public static final List<String> TABLES = List.of("runs", "run_events");

	private JdbcRunSchema() {
	}

	/**
	 * Return the statements of a platform's script with the prefix in place.
	 * @param platform the platform, one of {@link #PLATFORMS}
	 * @param prefix the table prefix
	 * @return the statements, in order
	 */
	public static List<String> statements(String platform, String prefix) {
		JdbcMemorySchema.validatePrefix(prefix);
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
				throw new MemoryException("Cannot create the run tables (prefix '" + prefix + "') with schema-"
						+ platform + ".sql: " + again.getMessage(), again);
			}
		}
	}

	/**
	 * Check that the tables exist, so that a missing schema is reported at startup rather
	 * than by the first run. A database that cannot be reached passes.
	 * @param dataSource the database
	 * @param prefix the table prefix
	 * @return false if the database could not be reached, true if the tables are there
	 * @throws MemoryException if a table is missing
	 */
	public static boolean verify(DataSource dataSource, String prefix) {
		JdbcMemorySchema.validatePrefix(prefix);
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			for (String table : TABLES) {
				try {
					statement.executeQuery("SELECT 1 FROM " + prefix + table + " WHERE 1 = 0").close();
				}
				catch (SQLException ex) {
					if (isConnectionFailure(ex)) {
						throw ex;
					}
					throw new MemoryException("The table " + prefix + table + " of the JDBC run store does not exist "
							+ "or cannot be read (SQL state " + ex.getSQLState() + "): create the schema (set "
							+ "agent.memory.jdbc.initialize-schema=always, or run the script "
							+ "dev/agcore/run/jdbc/schema-<platform>.sql through your migrations)", ex);
				}
			}
			return true;
		}
		catch (SQLException ex) {
			return false;
		}
	}

	/**
	 * Drop the tables, for tests and for removing the store.
	 * @param dataSource the database
	 * @param prefix the table prefix
	 */
	public static void drop(DataSource dataSource, String prefix) {
		JdbcMemorySchema.validatePrefix(prefix);
		try {
			JdbcOperations.execute(dataSource, TABLES.stream().map((table) -> "DROP TABLE IF EXISTS " + prefix + table).toList());
		}
		catch (SQLException ex) {
			throw new MemoryException("Cannot drop the run tables (prefix '" + prefix + "'): " + ex.getMessage(), ex);
		}
	}

	private static boolean isConnectionFailure(SQLException ex) {
		String state = ex.getSQLState();
		return ex instanceof java.sql.SQLTransientConnectionException
				|| ex instanceof java.sql.SQLNonTransientConnectionException || (state != null && state.startsWith("08"));
	}

	private static String script(String platform) {
		String name = "schema-" + platform.toLowerCase(Locale.ROOT) + ".sql";
		try (InputStream in = JdbcRunSchema.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new MemoryException("There is no run schema script for the database platform '" + platform
						+ "' (scripts exist for " + String.join(", ", PLATFORMS) + ")");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new MemoryException("Cannot read the run schema script " + name + ": " + ex.getMessage(), ex);
		}
	}

}
