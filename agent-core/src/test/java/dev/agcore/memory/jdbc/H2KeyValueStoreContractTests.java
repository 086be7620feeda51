package dev.agcore.memory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.KeyValueStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The key-value store contract on H2 in memory.
 */
class H2KeyValueStoreContractTests extends KeyValueStoreContract {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDatabases.h2("items");
		JdbcMemorySchema.create(dataSource, "h2", "mem_");
	}

	@AfterAll
	static void closeDatabase() {
		dataSource.close();
	}

	@Override
	protected KeyValueStore createStore(Settings settings) {
		return JdbcKeyValueStore.builder(dataSource)
			.tablePrefix("mem_")
			.maxItemsPerNamespace(settings.maxItemsPerNamespace())
			.ttl(settings.ttl())
			.build();
	}

	@Override
	protected void purgeExpired(KeyValueStore store) {
		((JdbcKeyValueStore) store).purgeExpired();
	}

}
