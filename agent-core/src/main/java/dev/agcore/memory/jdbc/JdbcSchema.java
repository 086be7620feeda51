package dev.agcore.memory.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryException;

/**
 * The tables of a family of JDBC stores of agent-core (memory, runs, workflow
 * checkpoints), as one script per database platform shipped in this jar
 * ({@code <folder>/schema-<platform>.sql}, with {@code ${prefix}} for the table prefix).
 * Every statement creates only what is missing, so running a script again, or from two
 * instances, is harmless. Apps that manage their schema with Flyway or Liquibase copy the
 * scripts into migrations instead, with {@code ${prefix}} replaced by their table prefix.
 * <p>
 * The schemas are {@link JdbcMemorySchema#SCHEMA},
 * {@code dev.agcore.run.jdbc.JdbcRunStore.SCHEMA} and
 * {@code dev.agcore.workflow.jdbc.JdbcCheckpointStore.SCHEMA}.
 *
 * @since 0.1.0
 */
public final class JdbcSchema {

	/** The platforms scripts are shipped for. */
	public static final List<String> PLATFORMS = List.of("postgresql", "h2", "mariadb");

	/** The table prefix used when none is given. */
	public static final String DEFAULT_PREFIX = "agent_";

	private static final Pattern PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");

	private final String name;

	private final String storeName;

	private final String folder;

	private final List<String> tables;

	/**
	 * Describe the schema of a family of stores.
	 * @param name what its tables are called in messages, such as {@code run} (for "the
	 * run tables")
	 * @param storeName the store the tables belong to in messages, such as
	 * {@code JDBC run store}
	 * @param folder the resource folder of its scripts, such as {@code dev/agcore/run/jdbc}
	 * @param tables its tables without the prefix, in the order they are created (they are
	 * dropped in the reverse order)
	 */
	public JdbcSchema(String name, String storeName, String folder, List<String> tables) {
		this.name = Objects.requireNonNull(name, "'name' must not be null");
		this.storeName = Objects.requireNonNull(storeName, "'storeName' must not be null");
		this.folder = Objects.requireNonNull(folder, "'folder' must not be null");
		this.tables = List.copyOf(tables);
	}

	/**
	 * The tables, without their prefix, in the order they are created.
	 * @return the tables
	 */
	public List<String> tables() {
		return this.tables;
	}

	/**
	 * The path of the scripts, with {@code <platform>} for the platform, as messages name it.
	 * @return such as {@code dev/agcore/run/jdbc/schema-<platform>.sql}
	 */
	public String scriptPath() {
		return this.folder + "/schema-<platform>.sql";
	}

	/**
	 * Describe a store on these tables for {@link JdbcOperations}.
	 * @param storeName the store's name in messages
	 * @return the description
	 */
	public JdbcOperations.Store store(String storeName) {
		return new JdbcOperations.Store(storeName, this.tables, scriptPath());
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
	 * @throws MemoryException if the database cannot be reached or does not say
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
	 * Return the statements of a platform's script with the prefix in place.
	 * @param platform the platform, one of {@link #PLATFORMS}
	 * @param prefix the table prefix
	 * @return the statements, in order
	 * @throws MemoryException if there is no script for the platform
	 */
	public List<String> statements(String platform, String prefix) {
		validatePrefix(prefix);
		return JdbcOperations.statements(script(platform).replace("${prefix}", prefix));
	}

	/**
	 * Create the tables and indexes that are missing.
	 * @param dataSource the database
	 * @param platform the platform, one of {@link #PLATFORMS}
	 * @param prefix the table prefix
	 */
	public void create(DataSource dataSource, String platform, String prefix) {
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
				throw new MemoryException("Cannot create the " + this.name + " tables (prefix '" + prefix + "') with "
						+ this.folder + "/" + scriptName(platform) + ": " + again.getMessage(), again);
			}
		}
	}

	/**
	 * Check that the tables exist, so that a missing schema is reported at startup rather
	 * than by the first operation. A database that cannot be reached passes: the stores
	 * report it when used, and work once it is back.
	 * @param dataSource the database
	 * @param prefix the table prefix
	 * @return false if the database could not be reached, true if the tables are there
	 * @throws MemoryException if a table is missing
	 */
	public boolean verify(DataSource dataSource, String prefix) {
		validatePrefix(prefix);
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			for (String table : this.tables) {
				try {
					statement.executeQuery("SELECT 1 FROM " + prefix + table + " WHERE 1 = 0").close();
				}
				catch (SQLException ex) {
					if (isConnectionFailure(ex)) {
						throw ex;
					}
					throw new MemoryException("The table " + prefix + table + " of the " + this.storeName
							+ " does not exist or cannot be read (SQL state " + ex.getSQLState() + "): create the "
							+ "schema (set agent.memory.jdbc.initialize-schema=always, or run the script "
							+ scriptPath() + " through your migrations)", ex);
				}
			}
			return true;
		}
		catch (SQLException ex) {
			return false;
		}
	}

	/**
	 * Drop the tables, for tests and for removing the stores.
	 * @param dataSource the database
	 * @param prefix the table prefix
	 */
	public void drop(DataSource dataSource, String prefix) {
		validatePrefix(prefix);
		try {
			List<String> statements = new ArrayList<>();
			for (int i = this.tables.size() - 1; i >= 0; i--) {
				statements.add("DROP TABLE IF EXISTS " + prefix + this.tables.get(i));
			}
			JdbcOperations.execute(dataSource, statements);
		}
		catch (SQLException ex) {
			throw new MemoryException(
					"Cannot drop the " + this.name + " tables (prefix '" + prefix + "'): " + ex.getMessage(), ex);
		}
	}

	private static boolean isConnectionFailure(SQLException ex) {
		String state = ex.getSQLState();
		return ex instanceof SQLTransientConnectionException || ex instanceof SQLNonTransientConnectionException
				|| (state != null && state.startsWith("08"));
	}

	private static String scriptName(String platform) {
		return "schema-" + platform.toLowerCase(Locale.ROOT) + ".sql";
	}

	private String script(String platform) {
		String path = this.folder + "/" + scriptName(platform);
		try (InputStream in = JdbcSchema.class.getResourceAsStream("/" + path)) {
			if (in == null) {
				throw new MemoryException("There is no " + this.name + " schema script for the database platform '"
						+ platform + "' (scripts exist for " + String.join(", ", PLATFORMS) + "): set "
						+ "agent.memory.jdbc.platform to one of them if the database is compatible, or create the "
						+ "tables yourself and set agent.memory.jdbc.initialize-schema=never");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new MemoryException("Cannot read the " + this.name + " schema script " + path + ": " + ex.getMessage(),
					ex);
		}
	}

}
