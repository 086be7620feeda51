package dev.agcore.memory.jdbc;

import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.KeyValueStoreContract;
import dev.agcore.memory.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The key-value store contract on MariaDB (127.0.0.1:3306, database {@code test}, user root), in tables of
 * this class's own prefix that are dropped afterwards; the outage goes through a
 * {@link TcpProxy}. Skipped when MariaDB is not running, failed on CI.
 */
class MariaDbKeyValueStoreContractTests extends KeyValueStoreContract {

	private static final String PREFIX = TestDatabases.prefix("kv");

	private static HikariDataSource dataSource;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@BeforeAll
	static void createTables() {
		TestDatabases.requireMariaDb();
		dataSource = TestDatabases.mariadb(TestDatabases.MARIADB_PORT);
		JdbcMemorySchema.create(dataSource, "mariadb", PREFIX);
	}

	@AfterAll
	static void dropTables() {
		if (dataSource != null) {
			JdbcMemorySchema.drop(dataSource, PREFIX);
			dataSource.close();
		}
	}

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Override
	protected KeyValueStore createStore(Settings settings) {
		return store(dataSource, settings);
	}

	private static JdbcKeyValueStore store(HikariDataSource dataSource, Settings settings) {
		return JdbcKeyValueStore.builder(dataSource)
			.tablePrefix(PREFIX)
			.maxItemsPerNamespace(settings.maxItemsPerNamespace())
			.ttl(settings.ttl())
			.build();
	}

	@Override
	protected void purgeExpired(KeyValueStore store) {
		((JdbcKeyValueStore) store).purgeExpired();
	}

	@Override
	protected Outage outage() {
		TcpProxy proxy = TcpProxy.to(TestDatabases.POSTGRES_HOST, TestDatabases.MARIADB_PORT);
		HikariDataSource proxied = TestDatabases.mariadb(proxy.port());
		this.closeables.add(proxied);
		this.closeables.add(proxy);
		KeyValueStore store = store(proxied, Settings.DEFAULT);
		return new Outage() {

			@Override
			public KeyValueStore store() {
				return store;
			}

			@Override
			public void cut() {
				proxy.cut();
			}

			@Override
			public void restore() {
				proxy.restore();
			}

		};
	}

}
