package dev.agcore.autoconfigure.actuate;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.autoconfigure.tool.AgentTools;
import dev.agcore.runtime.AgentRegistry;

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
			ObjectProvider<AgentToolSource> toolSources) {
		return new AgentsEndpoint(agents, agentTools.getIfAvailable(), toolSources.orderedStream().toList());
	}

}
