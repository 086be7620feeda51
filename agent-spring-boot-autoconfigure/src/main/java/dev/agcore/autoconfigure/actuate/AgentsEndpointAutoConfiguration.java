package dev.agcore.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.autoconfigure.tool.AgentTools;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.run.RunStore;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.workflow.CheckpointStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link AgentsEndpoint}
 * ({@code /actuator/agents}), when Spring Boot Actuator is on the class path and the
 * endpoint is exposed ({@code management.endpoints.web.exposure.include=agents}).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = AgentAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
public final class AgentsEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(AgentRegistry.class)
	@ConditionalOnAvailableEndpoint(AgentsEndpoint.class)
	AgentsEndpoint agentsEndpoint(AgentRegistry agents, ObjectProvider<AgentTools> agentTools,
			ObjectProvider<AgentToolSource> toolSources, ObjectProvider<ConversationStore> conversations,
			ObjectProvider<KeyValueStore> keyValues, ObjectProvider<RunStore> runs,
			ObjectProvider<CheckpointStore> checkpoints, ObjectProvider<AgentSessionActivity> sessions) {
		Map<String, String> stores = new LinkedHashMap<>();
		conversations.ifUnique((store) -> stores.put("conversations", store.getClass().getName()));
		keyValues.ifUnique((store) -> stores.put("keyValue", store.getClass().getName()));
		runs.ifUnique((store) -> stores.put("runs", store.getClass().getName()));
		checkpoints.ifUnique((store) -> stores.put("checkpoints", store.getClass().getName()));
		return new AgentsEndpoint(agents, agentTools.getIfAvailable(), toolSources.orderedStream().toList(), stores,
				sessions.getIfUnique());
	}

	// fed by every configured agent's finished turns; counts only, never content
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(AgentsEndpoint.class)
	AgentSessionActivity agentSessionActivity() {
		return new AgentSessionActivity();
	}

}
