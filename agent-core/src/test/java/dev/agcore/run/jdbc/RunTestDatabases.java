package dev.agcore.run.jdbc;

import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * Databases for the run store tests: the PostgreSQL and MariaDB of the machine
 * (127.0.0.1, database {@code test}) and H2 in memory, with short timeouts; and table
 * prefixes of each test class's own.
 */
final class RunTestDatabases {

	static final String HOST = "127.0.0.1";

	static final int POSTGRES_PORT = 5432;

	static final int MARIADB_PORT = 3306;

	private RunTestDatabases() {
	}

	static HikariDataSource postgres() {
		return pool("jdbc:postgresql://" + HOST + ":" + POSTGRES_PORT + "/test?connectTimeout=2&socketTimeout=10",
				"postgres");
	}

	static HikariDataSource mariadb() {
		return pool("jdbc:mariadb://" + HOST + ":" + MARIADB_PORT + "/test?connectTimeout=2000&socketTimeout=10000",
				"root");
	}

	static HikariDataSource h2() {
		return pool("jdbc:h2:mem:runs-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa");
	}

	private static HikariDataSource pool(String url, String user) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(user);
		config.setMaximumPoolSize(10);
		config.setMinimumIdle(0);
		config.setConnectionTimeout(3000);
		config.setValidationTimeout(1000);
		config.setInitializationFailTimeout(-1);
		return new HikariDataSource(config);
	}

	/** A table prefix no other test class uses, so parallel builds do not collide. */
	static String prefix(String name) {
		return name + "_" + UUID.randomUUID().toString().substring(0, 8) + "_";
	}

}
