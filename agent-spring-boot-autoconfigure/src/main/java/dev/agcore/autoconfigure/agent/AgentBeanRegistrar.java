package dev.agcore.autoconfigure.agent;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Registers one {@link Agent} bean per {@code agent.agents} entry, named after the
 * agent, so that it can be injected by name or {@code @Qualifier}. Runs after every
 * configuration class has been parsed, so a bean the application defines under the same
 * name wins, and the application's {@link ChatModel} and {@link Agent} beans can be seen
 * when deciding on the default agent. The agents themselves are built by the
 * {@link ConfiguredAgentFactory} bean.
 */
final class AgentBeanRegistrar implements BeanDefinitionRegistryPostProcessor {

	/** Name of the agent created when none is configured. */
	static final String DEFAULT_AGENT_NAME = "assistant";

	private static final Log logger = LogFactory.getLog(AgentBeanRegistrar.class);

	private final Environment environment;

	AgentBeanRegistrar(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
		Binder binder = Binder.get(this.environment);
		Set<String> agentNames = names(binder, "agent.agents", AgentProperties.AgentSpec.class);
		Set<String> providerNames = names(binder, "agent.providers", AgentProperties.Provider.class);
		Set<String> unknown = new TreeSet<>(
				UnknownPropertyCheck.unknown(binder, "agent.agents", agentNames, AgentProperties.AgentSpec.class));
		unknown.addAll(
				UnknownPropertyCheck.unknown(binder, "agent.providers", providerNames, AgentProperties.Provider.class));
		Set<String> modelNames = names(binder, "agent.models", AgentProperties.ModelSpec.class);
		unknown.addAll(UnknownPropertyCheck.unknown(binder, "agent.models", modelNames, AgentProperties.ModelSpec.class));
		UnknownPropertyCheck.check(unknown);
		for (String name : agentNames) {
			register(registry, name, "create");
		}
		if (agentNames.isEmpty() && isDefaultAgentWanted(registry, providerNames)) {
			register(registry, DEFAULT_AGENT_NAME, "createDefault");
		}
		else if (agentNames.isEmpty()) {
			logNoAgent(providerNames);
		}
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
	}

	/**
	 * Register the agent as a factory-method bean of the {@link ConfiguredAgentFactory}
	 * bean (not an instance supplier, which Spring AOT cannot process).
	 */
	private void register(BeanDefinitionRegistry registry, String name, String factoryMethodName) {
		if (registry.containsBeanDefinition(name)) {
			// the application's bean wins; ConfiguredAgentFactory reports it if it is no agent
			return;
		}
		RootBeanDefinition definition = new RootBeanDefinition(Agent.class);
		definition.setFactoryBeanName(AgentAutoConfiguration.CONFIGURED_AGENT_FACTORY_BEAN_NAME);
		definition.setFactoryMethodName(factoryMethodName);
		definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
		definition.setDescription("create".equals(factoryMethodName) ? "Agent '" + name + "' from agent.agents"
				: "Default agent '" + name + "' (no agent.agents configured, exactly one model)");
		registry.registerBeanDefinition(name, definition);
	}

	private boolean isDefaultAgentWanted(BeanDefinitionRegistry registry, Set<String> providerNames) {
		if (!(registry instanceof ListableBeanFactory beanFactory)) {
			return false;
		}
		// types only: nothing is created this early
		if (!ContextBeans.beanNamesForType(beanFactory, Agent.class, true, false).isEmpty()) {
			return false;
		}
		return providerNames.size() + ContextBeans.beanNamesForType(beanFactory, ChatModel.class, true, false).size() == 1;
	}

	// agent.* set but no Agent bean: say what was seen, rather than leave a silent gap
	private static void logNoAgent(Set<String> providers) {
		if (!providers.isEmpty()) {
			logger.warn("No agent is created: agent.providers has " + providers.size() + " providers " + providers
					+ " but agent.agents is empty. Add agent.agents.<name>.provider to create an Agent bean "
					+ "(with exactly one provider and no agent.agents, a default agent is created).");
		}
	}

	private static <T> Set<String> names(Binder binder, String name, Class<T> valueType) {
		return binder.bind(name, Bindable.mapOf(String.class, valueType)).map(Map::keySet).orElse(Set.of());
	}

}
