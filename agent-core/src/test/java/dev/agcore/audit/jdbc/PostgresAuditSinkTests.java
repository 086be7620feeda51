package dev.agcore.audit.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ServiceAvailability;
import dev.agcore.memory.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The audit sink contract on PostgreSQL (127.0.0.1:5432, database {@code test}), in tables
 * of each test's own prefix; the outage goes through a {@link TcpProxy}. Skipped when
 * PostgreSQL is not running, failed on CI.
 */
class PostgresAuditSinkTests extends AuditSinkContract {

	private static final int PORT = 5432;

	private static HikariDataSource dataSource;

	@BeforeAll
	static void open() {
		ServiceAvailability.require("PostgreSQL", "127.0.0.1", PORT);
		dataSource = dataSource(PORT);
	}

	@AfterAll
	static void close() {
		if (dataSource != null) {
			dataSource.close();
		}
	}

	@Override
	protected DataSource dataSource() {
		return dataSource;
	}

	@Override
	protected String platform() {
		return "postgresql";
	}

	@Override
	protected Outage outage() {
		TcpProxy proxy = TcpProxy.to("127.0.0.1", PORT);
		HikariDataSource proxied = dataSource(proxy.port());
		return new Outage() {

			@Override
			public DataSource dataSource() {
				return proxied;
			}

			@Override
			public void cut() {
				proxy.cut();
			}

			@Override
			public void restore() {
				proxy.restore();
			}

			@Override
			public void close() {
				proxied.close();
				proxy.close();
			}

		};
	}

	private static HikariDataSource dataSource(int port) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + port + "/test?connectTimeout=2&socketTimeout=10");
		config.setUsername("postgres");
		config.setMaximumPoolSize(10);
		config.setMinimumIdle(0);
		config.setConnectionTimeout(1500);
		config.setValidationTimeout(1000);
		config.setInitializationFailTimeout(-1);
		return new HikariDataSource(config);
	}

}
