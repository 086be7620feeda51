package dev.agcore.autoconfigure.chain;

import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.chain.Chain;
import dev.agcore.chain.ChainRegistry;
import dev.agcore.chain.Runnable;
import dev.agcore.json.AgentJson;
import dev.agcore.observation.AgentMetrics;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for chains: a {@link ChainRegistry}
 * whose chains are recorded in the {@link AgentMetrics} ({@code agent.chain.calls}), and
 * which every {@link Chain @Chain} method of a singleton bean and every {@link Runnable}
 * bean joins once all singletons exist. A {@code ChainRegistry} bean of the application's
 * replaces the registry, and they join it instead.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = AgentMetricsAutoConfiguration.class,
		afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
public final class ChainAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ChainRegistry chainRegistry(ObjectProvider<AgentMetrics> metrics) {
		return new ChainRegistry(metrics.getIfUnique(() -> AgentMetrics.NOOP));
	}

	@Bean
	ChainBeans chainBeans(ConfigurableListableBeanFactory beanFactory, ObjectProvider<ChainRegistry> registry,
			ObjectProvider<JsonMapper> jsonMapper) {
		// Boot's mapper carries the application's Jackson settings, as it does for tools
		return new ChainBeans(beanFactory, registry, () -> jsonMapper.getIfUnique(AgentJson::mapper));
	}

}
