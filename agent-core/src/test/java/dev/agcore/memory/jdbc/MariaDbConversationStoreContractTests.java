package dev.agcore.memory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.ConversationStoreContract;
import dev.agcore.memory.StoreOutage;
import dev.agcore.memory.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on MariaDB (127.0.0.1:3306, database {@code test}, user root), in tables of
 * this class's own prefix that are dropped afterwards; the outage goes through a
 * {@link TcpProxy}. Skipped when MariaDB is not running, failed on CI.
 */
class MariaDbConversationStoreContractTests extends ConversationStoreContract {

	private static ServerDatabase database;

	@BeforeAll
	static void createTables() {
		database = ServerDatabase.create(ServerDatabase.Server.MARIADB, "conv");
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
	protected ConversationStore createStore(Settings settings) {
		return store(database.dataSource(), settings);
	}

	private static JdbcConversationStore store(HikariDataSource dataSource, Settings settings) {
		return JdbcConversationStore.builder(dataSource)
			.tablePrefix(database.prefix())
			.maxMessagesPerSession(settings.maxMessagesPerSession())
			.sessionTtl(settings.sessionTtl())
			.build();
	}

	@Override
	protected void purgeExpired(ConversationStore store) {
		((JdbcConversationStore) store).purgeExpired();
	}

	@Override
	protected StoreOutage<ConversationStore> outage() {
		TcpProxy proxy = database.proxy();
		HikariDataSource proxied = database.dataSource(proxy);
		ConversationStore store = store(proxied, Settings.DEFAULT);
		return new StoreOutage<>(store, proxy);
	}

}
