package dev.agcore.autoconfigure.memory;

import java.util.List;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of {@link AgentSessions}: list a
 * user's sessions and delete a session, over the application's conversation and
 * key-value stores. Deleting a session also removes the isolated conversations
 * ({@code session-mode: isolated}) of the agents of {@code agent.agents}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ConversationStoreAutoConfiguration.class)
@ConditionalOnBean({ ConversationStore.class, KeyValueStore.class })
public final class AgentSessionsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AgentSessions agentSessions(ConversationStore conversationStore, KeyValueStore keyValueStore,
			ObjectProvider<AgentProperties> properties) {
		// a delete removes each configured agent's isolated conversation of the session too
		AgentProperties agentProperties = properties.getIfAvailable();
		List<String> agents = (agentProperties != null) ? List.copyOf(agentProperties.getAgents().keySet()) : List.of();
		return new AgentSessions(conversationStore, keyValueStore, agents);
	}

}
