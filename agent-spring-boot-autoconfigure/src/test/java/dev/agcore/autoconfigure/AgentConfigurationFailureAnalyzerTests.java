package dev.agcore.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentConfigurationFailureAnalyzer}.
 */
class AgentConfigurationFailureAnalyzerTests {

	@Test
	void analyzesWrappedAgentConfigurationException() {
		AgentConfigurationException cause = new AgentConfigurationException(
				"agent.providers.openai.base-url must be set", "Set it to the API root.");
		FailureAnalysis analysis = new AgentConfigurationFailureAnalyzer()
			.analyze(new BeanCreationException("chatModelRegistry", "Failed", cause));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).isEqualTo("agent.providers.openai.base-url must be set");
		assertThat(analysis.getAction()).isEqualTo("Set it to the API root.");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	@Test
	void ignoresOtherFailures() {
		assertThat(new AgentConfigurationFailureAnalyzer().analyze(new IllegalStateException("other"))).isNull();
	}

}
