package dev.agcore.autoconfigure.web.agui;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.PrincipalResolver;
import dev.agcore.autoconfigure.web.RequestAccess;
import dev.agcore.autoconfigure.memory.SessionOwnerStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.CallerResolver;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the AG-UI route, when
 * {@code agent.web.ag-ui.enabled=true} in a reactive web application:
 * {@code POST {agent.web.base-path}/{agent}/ag-ui} takes an AG-UI {@code RunAgentInput}
 * and streams the turn as AG-UI events (server-sent events). The caller, the agents'
 * roles and the sessions' owners are those of the agent endpoint ({@link RequestAccess});
 * {@code agent.web.allow-instructions} lets the input's context reach the turn as system
 * text. Replace the route by defining a bean named {@code agentAgUiRouterFunction}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { AgentAutoConfiguration.class, AgentWebAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty("agent.web.ag-ui.enabled")
@EnableConfigurationProperties({ AgentProperties.class, AgUiProperties.class })
public final class AgUiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "agentAgUiRouterFunction")
	RouterFunction<ServerResponse> agentAgUiRouterFunction(AgentRegistry agents, AgentProperties properties,
			ObjectProvider<PrincipalResolver> principals, ObjectProvider<SessionOwners> owners,
			ObjectProvider<KeyValueStore> keyValueStore,
			ObjectProvider<CallerResolver> callers, ObjectProvider<Auditor> auditor) {
		String basePath = AgentWebAutoConfiguration.basePath("agent.web.base-path", properties.getWeb().getBasePath());
		RequestAccess access = RequestAccess.create(agents, properties, principals.getIfUnique(),
				SessionOwnerStore.owners(owners, keyValueStore),
				callers.getIfUnique(() -> CallerResolver.NONE).secured())
			.audited(auditor.getIfUnique(() -> Auditor.NONE));
		AgUiHandler handler = new AgUiHandler(access, properties.getWeb().isAllowInstructions());
		return RouterFunctions.route()
			.POST(basePath + "/{agent}/ag-ui", handler::run)
			.onError(Throwable.class, handler::error)
			.build();
	}

}
