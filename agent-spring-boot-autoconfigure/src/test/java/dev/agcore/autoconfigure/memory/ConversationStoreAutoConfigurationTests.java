package dev.agcore.autoconfigure.memory;

import java.time.Duration;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link ConversationStoreAutoConfiguration}.
 */
class ConversationStoreAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ConversationStoreAutoConfiguration.class));

	@Test
	void defaultsToInMemoryStore() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(ConversationStore.class)
			.getBean(ConversationStore.class)
			.isInstanceOf(InMemoryConversationStore.class));
	}

	@Test
	void boundsTheInMemoryStoreByDefault() {
		this.contextRunner.run((context) -> {
			InMemoryConversationStore store = context.getBean(InMemoryConversationStore.class);
			assertThat(store.maxSessions()).isEqualTo(10_000);
			assertThat(store.maxMessagesPerSession()).isEqualTo(1_000);
		});
	}

	@Test
	void bindsTheBoundsFromProperties() {
		this.contextRunner
			.withPropertyValues("agent.memory.max-sessions=50", "agent.memory.max-messages-per-session=200")
			.run((context) -> {
				InMemoryConversationStore store = context.getBean(InMemoryConversationStore.class);
				assertThat(store.maxSessions()).isEqualTo(50);
				assertThat(store.maxMessagesPerSession()).isEqualTo(200);
			});
	}

	@Test
	void boundBelowOneFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.memory.max-messages-per-session=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.memory.max-messages-per-session must be at least 1 (was 0)"));
	}

	@Test
	void userStoreWins() {
		ConversationStore store = mock(ConversationStore.class);
		this.contextRunner.withBean(ConversationStore.class, () -> store)
			.run((context) -> assertThat(context).hasSingleBean(ConversationStore.class)
				.getBean(ConversationStore.class)
				.isSameAs(store));
	}

	@Test
	void sessionTimeToLiveDefaultsToThirtyDaysAndBinds() {
		this.contextRunner.run((context) -> assertThat(context.getBean(InMemoryConversationStore.class).sessionTtl())
			.isEqualTo(Duration.ofDays(30)));
		this.contextRunner.withPropertyValues("agent.memory.session-ttl=2h")
			.run((context) -> assertThat(context.getBean(InMemoryConversationStore.class).sessionTtl())
				.isEqualTo(Duration.ofHours(2)));
	}

	@Test
	void negativeTimeToLiveFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.memory.long-term.ttl=-1s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageStartingWith("agent.memory.long-term.ttl must not be negative"));
	}

	@Test
	void aPersistentStoreThatCannotBeCreatedFailsInsteadOfFallingBackToMemory() {
		// only this auto-configuration: as if spring-jdbc or spring-data-redis were missing
		this.contextRunner.withPropertyValues("agent.memory.store=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.memory.store is 'jdbc' but no JDBC store could be created"));
		this.contextRunner.withPropertyValues("agent.memory.store=redis")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.memory.store is 'redis' but no Redis store could be created"));
	}

	@Test
	void aMisspelledKeyFailsStartupRatherThanKeepingConversationsInMemory() {
		this.contextRunner.withPropertyValues("agent.memory.stor=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException.class)
				.hasMessageContaining("agent.memory.stor"));
	}

}
