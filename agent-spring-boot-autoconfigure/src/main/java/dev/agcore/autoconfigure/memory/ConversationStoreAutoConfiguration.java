package dev.agcore.autoconfigure.memory;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ConversationStore}
 * and the {@link KeyValueStore} behind the tools' session and long-term memory: in-memory
 * stores unless the application defines its own. The in-memory conversation store is
 * bounded by {@link MemoryProperties agent.memory.*}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(MemoryProperties.class)
public final class ConversationStoreAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ConversationStore.class)
	InMemoryConversationStore conversationStore(MemoryProperties properties) {
		return new InMemoryConversationStore(atLeastOne("agent.memory.max-sessions", properties.getMaxSessions()),
				atLeastOne("agent.memory.max-messages-per-session", properties.getMaxMessagesPerSession()));
	}

	@Bean
	@ConditionalOnMissingBean(KeyValueStore.class)
	InMemoryKeyValueStore keyValueStore() {
		return new InMemoryKeyValueStore();
	}

	private static int atLeastOne(String property, int value) {
		if (value < 1) {
			throw new AgentConfigurationException(property + " must be at least 1 (was " + value + ")",
					"Set " + property + " to a positive number, or remove it to use the default.");
		}
		return value;
	}

}
