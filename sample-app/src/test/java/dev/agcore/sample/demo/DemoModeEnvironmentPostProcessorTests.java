package dev.agcore.sample.demo;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DemoModeEnvironmentPostProcessor}.
 */
class DemoModeEnvironmentPostProcessorTests {

	private final MockEnvironment environment = new MockEnvironment()
		.withProperty("agent.providers.openai.base-url", "https://api.openai.com/v1")
		.withProperty("agent.providers.openai.api-key", "")
		.withProperty("agent.agents.assistant.model", "openai");

	@Test
	void demoWithoutApiKey() {
		postProcess();
		assertThat(this.environment.getProperty("sample.demo.enabled")).isEqualTo("true");
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("demo");
	}

	@Test
	void realProviderWithApiKey() {
		this.environment.setProperty("agent.providers.openai.api-key", "sk-test");
		postProcess();
		assertThat(this.environment.getProperty("sample.demo.enabled")).isNull();
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("openai");
	}

	@Test
	void realProviderWithOtherBaseUrl() {
		this.environment.setProperty("agent.providers.openai.base-url", "http://localhost:11434/v1");
		postProcess();
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("openai");
	}

	@Test
	void demoCanBeForcedOff() {
		this.environment.setProperty("sample.demo.enabled", "false");
		postProcess();
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("openai");
	}

	private void postProcess() {
		new DemoModeEnvironmentPostProcessor().postProcessEnvironment(this.environment, new SpringApplication());
	}

}
