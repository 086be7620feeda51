package dev.agcore.autoconfigure.memory;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ConversationStore}:
 * an in-memory store unless the application defines its own.
 *
 * @since 0.1.0
 */
@AutoConfiguration
public final class ConversationStoreAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ConversationStore.class)
	InMemoryConversationStore conversationStore() {
		return new InMemoryConversationStore();
	}

}
