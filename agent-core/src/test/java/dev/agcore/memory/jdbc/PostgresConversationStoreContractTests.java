package dev.agcore.memory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.ConversationStoreContract;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.StoreOutage;
import dev.agcore.memory.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The store contract on PostgreSQL (127.0.0.1:5432, database {@code test}), in tables of
 * this class's own prefix that are dropped afterwards; the outage goes through a
 * {@link TcpProxy}. Skipped when PostgreSQL is not running, failed on CI.
 */
class PostgresConversationStoreContractTests extends ConversationStoreContract {

	private static ServerDatabase database;

	@BeforeAll
	static void createTables() {
		database = ServerDatabase.create(ServerDatabase.Server.POSTGRESQL, "conv");
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

	@Test
	void anUnreachableDatabaseIsReportedWithoutItsAddressOrCredentials() {
		TcpProxy proxy = database.proxy();
		HikariDataSource proxied = database.dataSource(proxy);
		proxied.setPassword("s3cret-pw");
		ConversationStore store = store(proxied, Settings.DEFAULT);
		proxy.cut();
		assertThatExceptionOfType(MemoryUnavailableException.class)
			.isThrownBy(() -> store.load("s").block(TIMEOUT))
			.withMessageStartingWith("The JDBC conversation store cannot reach its database")
			.withMessageNotContaining("s3cret-pw")
			.withMessageNotContaining("postgres")
			.withMessageNotContaining(String.valueOf(proxy.port()));
	}

	@Override
	protected StoreOutage<ConversationStore> outage() {
		TcpProxy proxy = database.proxy();
		HikariDataSource proxied = database.dataSource(proxy);
		ConversationStore store = store(proxied, Settings.DEFAULT);
		return new StoreOutage<>(store, proxy);
	}

}
