package dev.agcore.autoconfigure.agent;

import java.util.List;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.audit.AuditAutoConfiguration;
import dev.agcore.autoconfigure.budget.AgentBudgets;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.AgentMiddlewareFactory;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentObservationAutoConfiguration;
import dev.agcore.autoconfigure.prompt.UntrustedContentProperties;
import dev.agcore.autoconfigure.tool.AgentTools;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.memory.ConversationStore;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ModelAdapter;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.AgentObservations;
import dev.agcore.plan.JsonPlanParser;
import dev.agcore.plan.PlanParser;
import dev.agcore.prompt.PromptTemplates;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.CallerResolver;
import dev.agcore.runtime.SystemPromptVariables;
import dev.agcore.runtime.TurnSummaryListener;
import dev.agcore.runtime.security.SpringSecurityCallerResolver;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for agents. Each
 * {@code agent.agents.<name>} entry becomes an {@link Agent} bean named {@code <name>},
 * unless the application already defines a bean of that name. When no agent is
 * configured, the application defines no {@link Agent} bean and exactly one model is
 * available, a default agent named {@value AgentBeanRegistrar#DEFAULT_AGENT_NAME} with all
 * tools is created. The {@link AgentRegistry} holds every {@link Agent} bean, the
 * application's own included. Configured agents and the default agent get their
 * middleware from the {@link AgentMiddlewareFactory}, and their tools, permission policy,
 * secrets and stores from {@link AgentTools}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
		ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
		AgentObservationAutoConfiguration.class,
		MiddlewareAutoConfiguration.class, AuditAutoConfiguration.class },
		afterName = { "dev.agcore.autoconfigure.prompt.PromptTemplatesAutoConfiguration",
				"dev.agcore.autoconfigure.budget.BudgetAutoConfiguration" })
@EnableConfigurationProperties({ AgentProperties.class, UntrustedContentProperties.class })
public final class AgentAutoConfiguration {

	/** Name of the {@link ConfiguredAgentFactory} bean whose methods create the agents. */
	static final String CONFIGURED_AGENT_FACTORY_BEAN_NAME = "configuredAgentFactory";

	// static: a registry post-processor must exist before the configuration instance
	@Bean
	static AgentBeanRegistrar agentBeanRegistrar(Environment environment) {
		return new AgentBeanRegistrar(environment);
	}

	@Bean(CONFIGURED_AGENT_FACTORY_BEAN_NAME)
	ConfiguredAgentFactory configuredAgentFactory(AgentProperties properties, ChatModelRegistry models,
			AgentTools tools, ConversationStore conversationStore, AgentMetrics metrics,
			ObjectProvider<AgentMiddlewareFactory> middleware, ObjectProvider<MeterRegistry> meterRegistry,
			ObjectProvider<ModelAdapter> modelAdapters, ObjectProvider<PromptTemplates> promptTemplates,
			ObjectProvider<SystemPromptVariables> promptVariables, PlanParser planParser,
			ListableBeanFactory beanFactory, ObjectProvider<TurnSummaryListener> turnSummaryListeners,
			ObjectProvider<AgentObservations> observations, ObjectProvider<AgentBudgets> budgets,
			ObjectProvider<Auditor> auditor, UntrustedContentProperties untrustedContent,
			ObjectProvider<CallerResolver> callers) {
		return new ConfiguredAgentFactory(properties, models, tools, conversationStore, metrics,
				observations.getIfAvailable(() -> AgentObservations.NOOP),
				middleware.getIfAvailable(), meterRegistry.getIfUnique(), modelAdapters.orderedStream().toList(),
				new AgentPrompts(properties.getBaseSystemPrompt(), promptTemplates,
						promptVariables.orderedStream().toList()), new AgentRunners(beanFactory), planParser,
				turnSummaryListeners.orderedStream().toList(), new AgentSafeguards(budgets.getIfAvailable(),
						auditor.getIfAvailable(() -> Auditor.NONE), untrustedContent,
						callers.getIfUnique(() -> CallerResolver.NONE)));
	}

	/**
	 * With Spring Security, the caller of every turn is the authenticated user, with no
	 * code from the application: a controller's own {@code agent.invoke(...)} is checked
	 * as the starter's routes are. An application's own {@link CallerResolver} bean
	 * replaces it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
	static class SpringSecurityCallerConfiguration {

		@Bean
		@ConditionalOnMissingBean
		CallerResolver agentCallerResolver() {
			return new SpringSecurityCallerResolver();
		}

	}

	@Bean
	@ConditionalOnMissingBean
	PlanParser planParser() {
		return new JsonPlanParser();
	}

	@Bean
	@ConditionalOnMissingBean
	AgentRegistry agentRegistry(ObjectProvider<Agent> agents, ConfiguredAgentFactory factory) {
		List<Agent> all = agents.orderedStream().toList();
		return factory.registry(all);
	}

	@Bean
	AgentStartupLog agentStartupLog(AgentRegistry agents, AgentProperties properties) {
		return new AgentStartupLog(agents, properties.getAgents());
	}

}
