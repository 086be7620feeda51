package dev.agcore.memory.jdbc;

import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * Databases for the JDBC store tests: H2 in memory, one database per test class, and the
 * PostgreSQL of the machine (127.0.0.1:5432, database {@code test}), reached directly or
 * through a {@link dev.agcore.memory.TcpProxy}, with short timeouts so that an outage
 * fails fast.
 */
final class TestDatabases {

	static final String POSTGRES_HOST = "127.0.0.1";

	static final int POSTGRES_PORT = 5432;

	private TestDatabases() {
	}

	static HikariDataSource h2(String name) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		config.setUsername("sa");
		config.setMaximumPoolSize(10);
		return new HikariDataSource(config);
	}

	static HikariDataSource postgres(int port) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:postgresql://" + POSTGRES_HOST + ":" + port + "/test?connectTimeout=2&socketTimeout=10");
		config.setUsername("postgres");
		config.setMaximumPoolSize(10);
		config.setMinimumIdle(0);
		config.setConnectionTimeout(1500);
		config.setValidationTimeout(1000);
		config.setInitializationFailTimeout(-1);
		return new HikariDataSource(config);
	}

	static final int MARIADB_PORT = 3306;

	static HikariDataSource mariadb(int port) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:mariadb://" + POSTGRES_HOST + ":" + port + "/test?connectTimeout=2000&socketTimeout=10000");
		config.setUsername("root");
		config.setMaximumPoolSize(10);
		config.setMinimumIdle(0);
		config.setConnectionTimeout(1500);
		config.setValidationTimeout(1000);
		config.setInitializationFailTimeout(-1);
		return new HikariDataSource(config);
	}

	/** A table prefix no other test class uses, so parallel builds do not collide. */
	static String prefix(String name) {
		return name + "_" + UUID.randomUUID().toString().substring(0, 8) + "_";
	}

}
