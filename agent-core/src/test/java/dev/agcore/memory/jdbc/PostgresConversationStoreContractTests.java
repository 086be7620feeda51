package dev.agcore.memory.jdbc;

import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.ConversationStoreContract;
import dev.agcore.memory.MemoryUnavailableException;
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

	private static final String PREFIX = TestDatabases.prefix("conv");

	private static HikariDataSource dataSource;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@BeforeAll
	static void createTables() {
		TestDatabases.requirePostgres();
		dataSource = TestDatabases.postgres(TestDatabases.POSTGRES_PORT);
		JdbcMemorySchema.create(dataSource, "postgresql", PREFIX);
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
	protected ConversationStore createStore(Settings settings) {
		return store(dataSource, settings);
	}

	private static JdbcConversationStore store(HikariDataSource dataSource, Settings settings) {
		return JdbcConversationStore.builder(dataSource)
			.tablePrefix(PREFIX)
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
		TcpProxy proxy = TcpProxy.to(TestDatabases.POSTGRES_HOST, TestDatabases.POSTGRES_PORT);
		HikariDataSource proxied = TestDatabases.postgres(proxy.port());
		proxied.setPassword("s3cret-pw");
		this.closeables.add(proxied);
		this.closeables.add(proxy);
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
	protected Outage outage() {
		TcpProxy proxy = TcpProxy.to(TestDatabases.POSTGRES_HOST, TestDatabases.POSTGRES_PORT);
		HikariDataSource proxied = TestDatabases.postgres(proxy.port());
		this.closeables.add(proxied);
		this.closeables.add(proxy);
		ConversationStore store = store(proxied, Settings.DEFAULT);
		return new Outage() {

			@Override
			public ConversationStore store() {
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
