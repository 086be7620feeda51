package dev.agcore.autoconfigure.memory;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ConversationStore}
 * and the {@link KeyValueStore} behind the tools' session and long-term memory: in-memory
 * stores unless the application defines its own.
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

	@Bean
	@ConditionalOnMissingBean(KeyValueStore.class)
	InMemoryKeyValueStore keyValueStore() {
		return new InMemoryKeyValueStore();
	}

}
