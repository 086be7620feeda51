package dev.agcore.autoconfigure.run;

import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.LocalServices;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.run.jdbc.JdbcRunStoreAutoConfiguration;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.run.jdbc.JdbcRunStore;
import dev.agcore.workflow.jdbc.JdbcCheckpointStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Background runs on two application instances sharing one PostgreSQL database
 * (127.0.0.1:5432, database {@code test}) under a table prefix of their own, dropped
 * afterwards. Skipped when PostgreSQL is not running, failed on CI.
 */
class JdbcRunsTwoInstancesTests extends AbstractRunsTwoInstancesTests {

	private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String PREFIX = "runs2_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	@BeforeAll
	static void requirePostgres() {
		LocalServices.require("PostgreSQL", 5432);
	}

	@AfterAll
	static void dropTables() throws Exception {
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), URL, "postgres", "");
		JdbcRunStore.SCHEMA.drop(dataSource, PREFIX);
		JdbcCheckpointStore.SCHEMA.drop(dataSource, PREFIX);
		JdbcMemorySchema.drop(dataSource, PREFIX);
	}

	@Override
	protected Class<?> storeConfiguration() {
		return PostgresStore.class;
	}

	@Override
	protected String[] storeProperties() {
		return new String[] { "agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
				"agent.memory.jdbc.table-prefix=" + PREFIX, "spring.datasource.url=" + URL,
				"spring.datasource.username=postgres", "spring.datasource.hikari.maximum-pool-size=8" };
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, JdbcMemoryAutoConfiguration.class,
			JdbcRunStoreAutoConfiguration.class })
	static class PostgresStore {

	}

}
