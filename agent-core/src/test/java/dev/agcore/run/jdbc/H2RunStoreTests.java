package dev.agcore.run.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.run.MutableClock;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The JDBC run store on an in-memory H2 database (development and single-instance use):
 * the {@link RunStoreContractTests store contract}.
 */
class H2RunStoreTests extends RunStoreContractTests {

	private static final String PREFIX = "runs_";

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createTables() {
		dataSource = RunTestDatabases.h2();
		JdbcRunStore.SCHEMA.create(dataSource, "h2", PREFIX);
		// a second run creates nothing and fails nothing
		JdbcRunStore.SCHEMA.create(dataSource, "h2", PREFIX);
	}

	@AfterAll
	static void closeDatabase() {
		dataSource.close();
	}

	@BeforeEach
	void emptyTables() {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.update("DELETE FROM " + PREFIX + "run_events");
		jdbc.update("DELETE FROM " + PREFIX + "runs");
	}

	@Override
	protected RunStore createStore(MutableClock clock) {
		return JdbcRunStore.builder(dataSource).tablePrefix(PREFIX).clock(clock).build();
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
