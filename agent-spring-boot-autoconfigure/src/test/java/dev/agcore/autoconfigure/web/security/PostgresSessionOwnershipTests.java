package dev.agcore.autoconfigure.web.security;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.LocalServices;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import org.junit.jupiter.api.AfterAll;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The ownership tests on the JDBC stores on PostgreSQL (127.0.0.1:5432, database
 * {@code test}), under a table prefix of their own, dropped afterwards. Skipped when
 * PostgreSQL is not running, failed on CI.
 */
class PostgresSessionOwnershipTests extends AbstractSessionOwnershipTests {

	private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String PREFIX = "owners_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	@Override
	protected void requireStore() {
		LocalServices.require("PostgreSQL", 5432);
	}

	@AfterAll
	static void dropTables() throws Exception {
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), URL, "postgres", "");
		JdbcMemorySchema.drop(dataSource, PREFIX);
	}

	@Override
	protected Class<?> storeConfiguration() {
		return H2SessionOwnershipTests.JdbcStore.class;
	}

	@Override
	protected List<String> storeProperties() {
		return List.of("agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
				"agent.memory.jdbc.table-prefix=" + PREFIX, "spring.datasource.url=" + URL,
				"spring.datasource.username=postgres");
	}

}
