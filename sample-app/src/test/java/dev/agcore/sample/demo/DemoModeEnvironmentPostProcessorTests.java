package dev.agcore.sample.demo;

import java.io.IOException;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DemoModeEnvironmentPostProcessor}.
 */
class DemoModeEnvironmentPostProcessorTests {

	private final MockEnvironment environment = new MockEnvironment()
		.withProperty("agent.providers.openai.base-url", "https://api.openai.com/v1")
		.withProperty("agent.providers.openai.api-key", "")
		.withProperty("agent.agents.assistant.model", "openai")
		.withProperty("agent.agents.researcher.model", "openai")
		.withProperty("agent.agents.pinned.model", "other-provider");

	@Test
	void demoWithoutApiKey() {
		postProcess();
		assertThat(this.environment.getProperty("sample.demo.enabled")).isEqualTo("true");
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("demo");
		assertThat(this.environment.getProperty("agent.agents.researcher.model")).isEqualTo("demo");
		assertThat(this.environment.getProperty("agent.agents.pinned.model")).as("not on openai: left as it is")
			.isEqualTo("other-provider");
	}

	@Test
	void everyAgentOfTheSampleRunsOnTheScriptWithoutApiKey() throws IOException {
		StandardEnvironment environment = new StandardEnvironment();
		for (PropertySource<?> source : new YamlPropertySourceLoader().load("application.yml",
				new ClassPathResource("application.yml"))) {
			environment.getPropertySources().addLast(source);
		}
		// as the build runs the tests: no key in the environment
		environment.getPropertySources()
			.addFirst(new MapPropertySource("noKey", Map.of("agent.providers.openai.api-key", "",
					"agent.providers.openai.base-url", "https://api.openai.com/v1")));
		new DemoModeEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
		for (String agent : new String[] { "assistant", "planner", "researcher", "librarian" }) {
			assertThat(environment.getProperty("agent.agents." + agent + ".model")).as(agent).isEqualTo("demo");
		}
	}

	@Test
	void realProviderWithApiKey() {
		this.environment.setProperty("agent.providers.openai.api-key", "sk-test");
		postProcess();
		assertThat(this.environment.getProperty("sample.demo.enabled")).isNull();
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("openai");
		assertThat(this.environment.getProperty("agent.agents.researcher.model")).isEqualTo("openai");
	}

	@Test
	void realProviderWithOtherBaseUrl() {
		this.environment.setProperty("agent.providers.openai.base-url", "http://localhost:11434/v1");
		postProcess();
		assertThat(this.environment.getProperty("sample.demo.enabled")).isNull();
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("openai");
		assertThat(this.environment.getProperty("agent.agents.researcher.model")).isEqualTo("openai");
	}

	@Test
	void demoWithTheDefaultBaseUrlWrittenWithATrailingSlash() {
		this.environment.setProperty("agent.providers.openai.base-url", "https://api.openai.com/v1/");
		postProcess();
		assertThat(this.environment.getProperty("agent.agents.assistant.model")).isEqualTo("demo");
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
