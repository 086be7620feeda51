package dev.agcore.autoconfigure.memory;

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
	void userStoreWins() {
		ConversationStore store = mock(ConversationStore.class);
		this.contextRunner.withBean(ConversationStore.class, () -> store)
			.run((context) -> assertThat(context).hasSingleBean(ConversationStore.class)
				.getBean(ConversationStore.class)
				.isSameAs(store));
	}

}
