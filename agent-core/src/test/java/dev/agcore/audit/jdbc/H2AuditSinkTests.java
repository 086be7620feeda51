package dev.agcore.audit.jdbc;

import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The audit sink contract on H2 in memory; the outage fails every new connection.
 */
class H2AuditSinkTests extends AuditSinkContract {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void open() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		config.setUsername("sa");
		config.setMaximumPoolSize(10);
		dataSource = new HikariDataSource(config);
	}

	@AfterAll
	static void close() {
		dataSource.close();
	}

	@Override
	protected DataSource dataSource() {
		return dataSource;
	}

	@Override
	protected String platform() {
		return "h2";
	}

	@Override
	protected Outage outage() {
		return new SwitchedDataSource(dataSource);
	}

}
