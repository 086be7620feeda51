package dev.agcore.memory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.KeyValueStoreContract;
import dev.agcore.memory.StoreOutage;
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

	private static ServerDatabase database;

	@BeforeAll
	static void createTables() {
		database = ServerDatabase.create(ServerDatabase.Server.MARIADB, "kv");
	}

	@AfterAll
	static void dropTables() {
		if (database != null) {
			database.drop();
		}
	}

	@AfterEach
	void closeProxies() throws Exception {
		database.closeProxies();
	}

	@Override
	protected KeyValueStore createStore(Settings settings) {
		return store(database.dataSource(), settings);
	}

	private static JdbcKeyValueStore store(HikariDataSource dataSource, Settings settings) {
		return JdbcKeyValueStore.builder(dataSource)
			.tablePrefix(database.prefix())
			.maxItemsPerNamespace(settings.maxItemsPerNamespace())
			.ttl(settings.ttl())
			.build();
	}

	@Override
	protected void purgeExpired(KeyValueStore store) {
		((JdbcKeyValueStore) store).purgeExpired();
	}

	@Override
	protected StoreOutage<KeyValueStore> outage() {
		TcpProxy proxy = database.proxy();
		HikariDataSource proxied = database.dataSource(proxy);
		KeyValueStore store = store(proxied, Settings.DEFAULT);
		return new StoreOutage<>(store, proxy);
	}

}
