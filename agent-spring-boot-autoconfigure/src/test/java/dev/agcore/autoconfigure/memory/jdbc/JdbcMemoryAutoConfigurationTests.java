package dev.agcore.autoconfigure.memory.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.Conversation;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.memory.jdbc.JdbcKeyValueStore;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link JdbcMemoryAutoConfiguration}, on H2 in memory.
 */
class JdbcMemoryAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcMemoryAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class))
		.withPropertyValues("agent.memory.store=jdbc",
				"spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void keepsConversationsAndValuesInTheDataSourceCreatingTheTablesOfAnEmbeddedDatabase() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(JdbcConversationStore.class).hasSingleBean(JdbcKeyValueStore.class);
			assertThat(context).doesNotHaveBean(InMemoryConversationStore.class);
			ConversationStore conversations = context.getBean(ConversationStore.class);
			conversations.append("s1", 0, List.of(new UserMessage("hi"))).block(TIMEOUT);
			assertThat(conversations.load("s1").block(TIMEOUT))
				.isEqualTo(new Conversation(List.of(new UserMessage("hi")), 1));
			KeyValueStore items = context.getBean(KeyValueStore.class);
			items.put("ns", "k", AgentJson.mapper().readTree("{\"a\":1}")).block(TIMEOUT);
			assertThat(items.get("ns", "k").block(TIMEOUT)).isEqualTo(AgentJson.mapper().readTree("{\"a\":1}"));
		});
	}

	@Test
	void withInitializeSchemaNeverMissingTablesFailStartupSayingHowToCreateThem() {
		this.contextRunner.withPropertyValues("agent.memory.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent_session")
				.hasMessageContaining("agent.memory.jdbc.initialize-schema=always"));
	}

	@Test
	void aDatabaseThatIsDownAtStartupDoesNotFailItWhenTheTablesAreNotCreated() {
		this.contextRunner
			.withPropertyValues("spring.datasource.url=jdbc:postgresql://127.0.0.1:1/test",
					"spring.datasource.hikari.connection-timeout=250", "agent.memory.jdbc.initialize-schema=never")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThatExceptionOfType(MemoryUnavailableException.class)
					.isThrownBy(() -> context.getBean(ConversationStore.class).load("s1").block(TIMEOUT));
			});
	}

	@Test
	void aDatabaseThatIsDownWhenItsTablesMustBeCreatedFailsStartupSayingSo() {
		this.contextRunner
			.withPropertyValues("spring.datasource.url=jdbc:postgresql://127.0.0.1:1/test",
					"spring.datasource.hikari.connection-timeout=250", "agent.memory.jdbc.initialize-schema=always")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("AgentConfigurationException: Cannot connect to the memory database")
				.hasMessageContaining("spring.datasource.url"));
	}

	@Test
	void theTablePrefixIsUsed() {
		this.contextRunner.withPropertyValues("agent.memory.jdbc.table-prefix=chat_").run((context) -> {
			context.getBean(ConversationStore.class).append("s1", 0, List.of(new UserMessage("hi"))).block(TIMEOUT);
			Long rows = org.springframework.jdbc.core.simple.JdbcClient
				.create(context.getBean(javax.sql.DataSource.class))
				.sql("SELECT COUNT(*) FROM chat_message")
				.query(Long.class)
				.single();
			assertThat(rows).isEqualTo(1);
		});
	}

	@Test
	void aTablePrefixWithOtherCharactersFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.memory.jdbc.table-prefix=agent-x;")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.memory.jdbc.table-prefix 'agent-x;'"));
	}

	@Test
	void withoutADataSourceStartupFailsNamingTheStoreAndTheUrlProperty() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JdbcMemoryAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class))
			.withPropertyValues("agent.memory.store=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.memory.store is 'jdbc'")
				.satisfies((ex) -> assertThat(((AgentConfigurationException) ex).getAction())
					.contains("spring.datasource.url")));
	}

	@Test
	void withoutSpringJdbcStartupFailsSayingWhatToAdd() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.jdbc"))
			.withConfiguration(AutoConfigurations.of(JdbcMemoryAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("no JDBC store could be created"));
	}

	@Test
	void inMemoryUnlessTheJdbcStoreIsAskedFor() {
		this.contextRunner.withPropertyValues("agent.memory.store=in-memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryConversationStore.class)
				.doesNotHaveBean(JdbcConversationStore.class)
				.doesNotHaveBean(JdbcMemoryPurger.class));
	}

	@Test
	void aStoreOfTheApplicationWinsAndIsNotPurged() {
		ConversationStore own = mock(ConversationStore.class);
		this.contextRunner.withBean(ConversationStore.class, () -> own).run((context) -> {
			assertThat(context.getBean(ConversationStore.class)).isSameAs(own);
			assertThat(context).hasSingleBean(JdbcKeyValueStore.class);
			assertThat(context.getBean(JdbcMemoryPurger.class).purgeNow()).isZero();
		});
	}

	@Test
	void thePurgeRunsWithTheApplicationAndRemovesExpiredSessions() throws InterruptedException {
		this.contextRunner.withPropertyValues("agent.memory.session-ttl=1s").run((context) -> {
			JdbcMemoryPurger purger = context.getBean(JdbcMemoryPurger.class);
			assertThat(purger.isRunning()).isTrue();
			ConversationStore store = context.getBean(ConversationStore.class);
			store.append("old", 0, List.of(new UserMessage("hi"))).block(TIMEOUT);
			Thread.sleep(1200);
			assertThat(purger.purgeNow()).isEqualTo(1);
			assertThat(store.load("old").block(TIMEOUT)).isEqualTo(Conversation.EMPTY);
			context.close();
			assertThat(purger.isRunning()).isFalse();
		});
	}

	@Test
	void boundsFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.memory.claim-timeout=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.memory.claim-timeout must be positive (was PT0S)"));
		this.contextRunner.withPropertyValues("agent.memory.max-sessions=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.memory.max-sessions must be at least 1 (was 0)"));
	}

}
