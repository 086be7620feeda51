package dev.agcore.run.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ServiceAvailability;
import dev.agcore.run.MutableClock;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The JDBC run store on MariaDB (127.0.0.1:3306, database {@code test}) in tables of this
 * class's own prefix, dropped afterwards: the {@link RunStoreContractTests store
 * contract}. Skipped when MariaDB is not running, failed on CI.
 */
class MariaDbRunStoreTests extends RunStoreContractTests {

	private static String prefix;

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createTables() {
		ServiceAvailability.require("MariaDB", RunTestDatabases.HOST, RunTestDatabases.MARIADB_PORT);
		prefix = RunTestDatabases.prefix("runs");
		dataSource = RunTestDatabases.mariadb();
		JdbcRunStore.SCHEMA.create(dataSource, "mariadb", prefix);
		// a second run creates nothing and fails nothing
		JdbcRunStore.SCHEMA.create(dataSource, "mariadb", prefix);
	}

	@AfterAll
	static void dropTables() {
		if (dataSource != null) {
			JdbcRunStore.SCHEMA.drop(dataSource, prefix);
			dataSource.close();
		}
	}

	@BeforeEach
	void emptyTables() {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.update("DELETE FROM " + prefix + "run_events");
		jdbc.update("DELETE FROM " + prefix + "runs");
	}

	@Override
	protected RunStore createStore(MutableClock clock) {
		return JdbcRunStore.builder(dataSource).tablePrefix(prefix).clock(clock).build();
	}

	/** H2 and MariaDB have no notifications: the store never signals, readers poll. */
	@Override
	protected boolean signals() {
		return false;
	}

	@Override
	protected void closeStore(RunStore store) {
		((JdbcRunStore) store).close();
	}

}
