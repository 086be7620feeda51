package dev.agcore.autoconfigure.observation;

import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.observation.ToolOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentMetricsAutoConfiguration}.
 */
class AgentMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMetricsAutoConfiguration.class));

	@Test
	void recordsNothingWithoutMeterRegistry() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(AgentMetrics.class)
			.getBean(AgentMetrics.class)
			.isSameAs(AgentMetrics.NOOP));
	}

	@Test
	void recordsInMeterRegistry() {
		this.contextRunner.withBean(SimpleMeterRegistry.class).run((context) -> {
			assertThat(context).hasSingleBean(AgentMetrics.class).hasSingleBean(MicrometerAgentMetrics.class);
			context.getBean(AgentMetrics.class).toolCall("assistant", "get_weather", ToolOutcome.SUCCESS, 1000);
			assertThat(context.getBean(MeterRegistry.class).find("agent.tool.calls").timer()).isNotNull();
		});
	}

	@Test
	void recordsInMeterRegistryOfBootMetricsAutoConfiguration() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(MicrometerAgentMetrics.class));
	}

	@Test
	void userMetricsWin() {
		AgentMetrics metrics = new AgentMetrics() {
		};
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withBean(AgentMetrics.class, () -> metrics)
			.run((context) -> assertThat(context).getBean(AgentMetrics.class).isSameAs(metrics));
	}

}
