package dev.agcore.workflow.jdbc;

import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

class H2CheckpointStoreTests extends JdbcCheckpointStoreContract {

	@Override
	protected HikariDataSource dataSource() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:checkpoints-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		config.setUsername("sa");
		config.setMaximumPoolSize(10);
		return new HikariDataSource(config);
	}

	@Override
	protected String platform() {
		return "h2";
	}

}
