package dev.agcore.docs.memory;

import java.time.Duration;

import javax.sql.DataSource;

import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.memory.jdbc.JdbcKeyValueStore;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;

/** The JDBC stores without Spring Boot, from docs/memory.md. */
class JdbcStores {

	static Agent assistant(DataSource dataSource, ChatModel model) {
		// tag::jdbc[]
		// dataSource: a pool, e.g. HikariCP
		JdbcMemorySchema.create(dataSource, JdbcMemorySchema.detectPlatform(dataSource), "agent_");   // or a platform: "postgresql", "h2", "mariadb"
		JdbcConversationStore conversations = JdbcConversationStore.builder(dataSource)
			.tablePrefix("agent_")
			.maxMessagesPerSession(1_000)
			.sessionTtl(Duration.ofDays(30))
			.maxSessions(0)                    // 0 = no limit
			.claimTimeout(Duration.ofMinutes(10))
			.build();
		JdbcKeyValueStore memory = JdbcKeyValueStore.builder(dataSource)
			.tablePrefix("agent_")
			.maxItemsPerNamespace(10_000)
			.ttl(Duration.ZERO)
			.build();
		Agent agent = Agent.builder().name("assistant").model(model).conversationStore(conversations).build();
		// run conversations.purgeExpired() and memory.purgeExpired() on a schedule of your own
		// end::jdbc[]
		return agent;
	}

}
