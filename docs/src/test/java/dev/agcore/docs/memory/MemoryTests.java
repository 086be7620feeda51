package dev.agcore.docs.memory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.docs.support.Services;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.SessionInfo;
import dev.agcore.memory.SessionMemory;
import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.memory.redis.RedisConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of docs/memory.md. */
class MemoryTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("Hi."));

	@Test
	void theJdbcStoresKeepTheConversation() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:docs-memory;DB_CLOSE_DELAY=-1");
		Agent agent = JdbcStores.assistant(dataSource, this.model);
		agent.call("s1", "Hello");
		assertThat(agent.history("s1").block(Duration.ofSeconds(10))).hasSize(2);
	}

	@Test
	void theRedisStoresKeepTheConversation() {
		Services.requireRedis();
		Agent agent = RedisStores.assistant(this.model);
		String session = "docs-" + UUID.randomUUID();
		agent.call(session, "Hello");
		assertThat(agent.history(session).block(Duration.ofSeconds(10))).hasSize(2);
	}

	@Test
	void aWindowOfTwentyMessagesSendsAtMostTwenty() {
		Agent agent = Windows.lastMessages(this.model);
		for (int i = 0; i < 12; i++) {
			agent.call("s1", "Message " + i);
		}
		List<Message> last = this.model.requests().get(11).messages();
		assertThat(last.stream().filter((message) -> !(message instanceof dev.agcore.message.SystemMessage)))
			.hasSize(20);
	}

	@Test
	void aCompactingAgentAnswersBelowItsWindow() {
		Agent agent = Windows.compacting(this.model, this.model, new SimpleMeterRegistry());
		assertThat(agent.call("s1", "Hello").output()).isEqualTo("Hi.");
	}

	@Test
	void aToolWritesTheSessionMemory() {
		InMemoryKeyValueStore store = new InMemoryKeyValueStore();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> request.messages()
			.stream()
			.anyMatch(ToolResultMessage.class::isInstance) ? ScriptedChatModel.text("Noted.")
					: ScriptedChatModel.toolCalls(new ToolCall("c1", "choose_database", "{\"name\":\"PostgreSQL\"}")));
		Agent agent = Agent.builder()
			.name("architect")
			.model(model)
			.store(store)
			.tools(MethodTools.from(new DesignTools()))
			.build();
		agent.call("s1", "Use PostgreSQL");
		assertThat(SessionMemory.of(store, "s1").get("design", String.class)).contains("PostgreSQL");
	}

	@Test
	void aUsersSessionsAreListedAndDeleted() {
		SnippetContexts.yaml("memory/memory-tools.yml", this.model)
			.withUserConfiguration(UserSessions.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Agent assistant = context.getBean(AgentRegistry.class).get("assistant");
				UserTurns.hello(assistant).block(Duration.ofSeconds(10));
				UserSessions sessions = context.getBean(UserSessions.class);
				assertThat(sessions.forget()).extracting(SessionInfo::sessionId).containsExactly("s-42");
				assertThat(sessions.forget()).isEmpty();
			});
	}

	@Test
	void thePostgresqlSnippetStoresInPostgresql() {
		Services.requirePostgres();
		String prefix = "docs_" + UUID.randomUUID().toString().substring(0, 8) + "_";
		SnippetContexts.yaml("memory/postgres.yml")
			// the snippet's server is the reader's; the test's is local, with tables of its own
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("local postgresql",
						Map.of("spring.datasource.url", "jdbc:postgresql://127.0.0.1:5432/test", "spring.datasource.username",
								"postgres", "spring.datasource.password", "", "agent.memory.jdbc.table-prefix", prefix))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ConversationStore.class)).isInstanceOf(JdbcConversationStore.class);
				JdbcMemorySchema.drop(context.getBean(DataSource.class), prefix);
			});
	}

	@Test
	void theRedisSnippetStoresInRedis() {
		Services.requireRedis();
		SnippetContexts.yaml("memory/redis.yml")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("local redis", Map.of("spring.data.redis.host", "127.0.0.1"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ConversationStore.class)).isInstanceOf(RedisConversationStore.class);
			});
	}

}
