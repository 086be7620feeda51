package dev.agcore.workflow.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ServiceAvailability;

class PostgresCheckpointStoreTests extends JdbcCheckpointStoreContract {

	static HikariDataSource postgres() {
		ServiceAvailability.require("PostgreSQL", "127.0.0.1", 5432);
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:postgresql://127.0.0.1:5432/test?connectTimeout=2&socketTimeout=10");
		config.setUsername("postgres");
		config.setMaximumPoolSize(10);
		config.setMinimumIdle(0);
		config.setConnectionTimeout(1500);
		return new HikariDataSource(config);
	}

	@Override
	protected HikariDataSource dataSource() {
		return postgres();
	}

	@Override
	protected String platform() {
		return "postgresql";
	}

}
