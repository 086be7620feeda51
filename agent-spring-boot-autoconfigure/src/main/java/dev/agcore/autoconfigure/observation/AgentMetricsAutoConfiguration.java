package dev.agcore.autoconfigure.observation;

import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.MicrometerAgentMetrics;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for {@link AgentMetrics}: recorded in
 * Micrometer when there is a {@link MeterRegistry}, else not recorded at all.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
public final class AgentMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AgentMetrics agentMetrics() {
		return AgentMetrics.NOOP;
	}

	// member classes are processed first, so this wins over the no-op above
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(MeterRegistry.class)
	static class MicrometerAgentMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean(AgentMetrics.class)
		MicrometerAgentMetrics micrometerAgentMetrics(MeterRegistry meterRegistry) {
			return new MicrometerAgentMetrics(meterRegistry);
		}

	}

}
