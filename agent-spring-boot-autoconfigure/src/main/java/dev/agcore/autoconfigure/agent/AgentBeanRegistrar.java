package dev.agcore.autoconfigure.agent;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.Assert;

/**
 * Registers one {@link Agent} bean per {@code agent.agents} entry, named after the
 * agent, so that it can be injected by name or {@code @Qualifier}. Runs after every
 * configuration class has been parsed, so a bean the application defines under the same
 * name wins, and the application's {@link ChatModel} and {@link Agent} beans can be seen
 * when deciding on the default agent. The agents themselves are built by the
 * {@link ConfiguredAgentFactory} bean.
 */
final class AgentBeanRegistrar implements BeanDefinitionRegistryPostProcessor, BeanFactoryAware {

	/** Name of the agent created when none is configured. */
	static final String DEFAULT_AGENT_NAME = "assistant";

	private final Environment environment;

	private @Nullable BeanFactory beanFactory;

	AgentBeanRegistrar(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		this.beanFactory = beanFactory;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
		Binder binder = Binder.get(this.environment);
		Set<String> agentNames = names(binder, "agent.agents", AgentProperties.AgentSpec.class);
		for (String name : agentNames) {
			register(registry, name, () -> factory().create(name));
		}
		if (agentNames.isEmpty() && isDefaultAgentWanted(registry, binder)) {
			register(registry, DEFAULT_AGENT_NAME, () -> factory().createDefault(DEFAULT_AGENT_NAME));
		}
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
	}

	private void register(BeanDefinitionRegistry registry, String name, Supplier<Agent> supplier) {
		if (registry.containsBeanDefinition(name)) {
			// the application's bean wins; ConfiguredAgentFactory reports it if it is no agent
			return;
		}
		RootBeanDefinition definition = new RootBeanDefinition(Agent.class, supplier);
		definition.setDescription("Agent '" + name + "' from agent.agents");
		registry.registerBeanDefinition(name, definition);
	}

	private boolean isDefaultAgentWanted(BeanDefinitionRegistry registry, Binder binder) {
		if (!(registry instanceof ListableBeanFactory beanFactory)) {
			return false;
		}
		// types only: nothing is created this early
		if (!ContextBeans.beanNamesForType(beanFactory, Agent.class, true, false).isEmpty()) {
			return false;
		}
		int models = names(binder, "agent.providers", AgentProperties.Provider.class).size()
				+ ContextBeans.beanNamesForType(beanFactory, ChatModel.class, true, false).size();
		return models == 1;
	}

	private static <T> Set<String> names(Binder binder, String name, Class<T> valueType) {
		return binder.bind(name, Bindable.mapOf(String.class, valueType)).map(Map::keySet).orElse(Set.of());
	}

	private ConfiguredAgentFactory factory() {
		Assert.state(this.beanFactory != null, "'beanFactory' must be set");
		return this.beanFactory.getBean(ConfiguredAgentFactory.class);
	}

}
