package dev.agcore.workflow.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.memory.jdbc.JdbcOperations;

/**
 * The tables of the {@link JdbcCheckpointStore}, as one script per database platform
 * shipped in this jar ({@code dev/agcore/workflow/jdbc/schema-<platform>.sql}), beside
 * the memory tables of {@link JdbcMemorySchema} and with the same table prefix. Every
 * statement creates only what is missing.
 *
 * @since 0.1.0
 */
public final class JdbcCheckpointSchema {

	private JdbcCheckpointSchema() {
	}

	/**
	 * Return the statements of a platform's script with the prefix in place.
	 * @param platform the platform, one of {@link JdbcMemorySchema#PLATFORMS}
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
	 * @param platform the platform
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
				throw new MemoryException("Cannot create the checkpoint tables (prefix '" + prefix + "') with "
						+ "dev/agcore/workflow/jdbc/schema-" + platform + ".sql: " + again.getMessage(), again);
			}
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
			JdbcOperations.execute(dataSource, List.of("DROP TABLE IF EXISTS " + prefix + "workflow_checkpoint_entry",
					"DROP TABLE IF EXISTS " + prefix + "workflow_checkpoint"));
		}
		catch (SQLException ex) {
			throw new MemoryException("Cannot drop the checkpoint tables (prefix '" + prefix + "'): " + ex.getMessage(),
					ex);
		}
	}

	private static String script(String platform) {
		String name = "schema-" + platform.toLowerCase(Locale.ROOT) + ".sql";
		try (InputStream in = JdbcCheckpointSchema.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new MemoryException("There is no checkpoint schema script for the database platform '" + platform
						+ "' (scripts exist for " + String.join(", ", JdbcMemorySchema.PLATFORMS) + ")");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new MemoryException("Cannot read the checkpoint schema script " + name + ": " + ex.getMessage(), ex);
		}
	}

}
