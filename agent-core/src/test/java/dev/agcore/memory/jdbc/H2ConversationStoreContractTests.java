package dev.agcore.memory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.ConversationStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on H2 in memory; a "second instance" is a second store object on the
 * same database.
 */
class H2ConversationStoreContractTests extends ConversationStoreContract {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDatabases.h2("conversations");
		JdbcMemorySchema.create(dataSource, "h2", JdbcMemorySchema.DEFAULT_PREFIX);
	}

	@AfterAll
	static void closeDatabase() {
		dataSource.close();
	}

	@Override
	protected ConversationStore createStore(Settings settings) {
		return JdbcConversationStore.builder(dataSource)
			.maxMessagesPerSession(settings.maxMessagesPerSession())
			.sessionTtl(settings.sessionTtl())
			.build();
	}

	@Override
	protected void purgeExpired(ConversationStore store) {
		((JdbcConversationStore) store).purgeExpired();
	}

}
