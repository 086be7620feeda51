package dev.agcore.autoconfigure.memory;

import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of {@link AgentSessions}: list a
 * user's sessions and delete a session, over the application's conversation and
 * key-value stores.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ConversationStoreAutoConfiguration.class)
@ConditionalOnBean({ ConversationStore.class, KeyValueStore.class })
public final class AgentSessionsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AgentSessions agentSessions(ConversationStore conversationStore, KeyValueStore keyValueStore) {
		return new AgentSessions(conversationStore, keyValueStore);
	}

}
