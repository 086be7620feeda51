package dev.agcore.autoconfigure.web.ui;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.ResourceLoader;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the agent chat page, when
 * {@code agent.web.ui.enabled=true} in a reactive web application: a page at
 * {@code {agent.web.base-path}/ui} that lists the agents and a user's sessions, streams
 * turns with their tool calls, reasoning, plans and sub-agents, and asks for approval of
 * paused tool calls, all through the agent endpoint of {@link AgentWebAutoConfiguration}.
 * A developer tool: secure the route before turning it on anywhere else.
 * Replace the routes by defining a bean named {@code agentUiRouterFunction}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = AgentWebAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty("agent.web.ui.enabled")
@EnableConfigurationProperties({ AgentProperties.class, AgentUiProperties.class })
@ImportRuntimeHints(AgentUiRuntimeHints.class)
public final class AgentUiAutoConfiguration {

	// before the agent routes, so that an agent named "ui" cannot shadow the page; a path
	// the page does not serve falls through to them
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 100)
	@ConditionalOnMissingBean(name = "agentUiRouterFunction")
	RouterFunction<ServerResponse> agentUiRouterFunction(AgentProperties properties, ResourceLoader resourceLoader) {
		if (!properties.getWeb().isEnabled()) {
			throw new AgentConfigurationException(
					"agent.web.ui.enabled=true, but the agent endpoint the page talks to is off",
					"Set agent.web.enabled=true as well, or agent.web.ui.enabled=false.");
		}
		ClassLoader classLoader = resourceLoader.getClassLoader();
		return AgentUiRoutes.create(properties.getWeb().getBasePath(),
				(classLoader != null) ? classLoader : AgentUiRoutes.class.getClassLoader());
	}

}
