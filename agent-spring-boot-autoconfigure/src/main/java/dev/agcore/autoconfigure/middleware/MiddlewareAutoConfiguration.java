package dev.agcore.autoconfigure.middleware;

import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.model.ChatModelRegistry;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for agent middleware: the
 * {@link AgentMiddlewareFactory} that gives each configured agent the application's
 * middleware beans (including beans with hook-annotated methods) and the built-ins of
 * {@code agent.agents.<name>.middleware}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { ChatModelAutoConfiguration.class, AgentMetricsAutoConfiguration.class })
public final class MiddlewareAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AgentMiddlewareFactory agentMiddlewareFactory(ConfigurableListableBeanFactory beanFactory,
			ChatModelRegistry models, ObjectProvider<MeterRegistry> meterRegistry) {
		return new AgentMiddlewareFactory(beanFactory, models, meterRegistry.getIfUnique());
	}

}
