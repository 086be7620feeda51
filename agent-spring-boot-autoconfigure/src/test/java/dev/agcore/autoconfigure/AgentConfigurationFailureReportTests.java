package dev.agcore.autoconfigure;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A misconfigured application fails at startup with the failure analyzer's report, which
 * names the property and says what to do, instead of a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class AgentConfigurationFailureReportTests {

	@Test
	void unknownProviderIsReportedWithDescriptionAndAction(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> application.run(
				"--agent.providers.openai.base-url=http://localhost:1/v1", "--agent.providers.openai.model=m",
				"--agent.agents.assistant.provider=foo"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:")
			.contains("agent.agents.assistant.provider: unknown model 'foo'; models: []; configured providers: "
					+ "[openai]; ChatModel beans: []")
			.contains("Action:")
			.contains("Set agent.agents.assistant.model to the name of a model under agent.models, a provider under "
					+ "agent.providers or a ChatModel bean.");
	}

	@Test
	void missingAgentExplainsWhatAnAgentNeeds(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class, NeedsAgent.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(Exception.class).isThrownBy(application::run);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("An Agent is injected, but no agent is configured")
			.contains("agent.providers.<name>")
			.contains("Configure a provider and an agent")
			.doesNotContain("Consider defining a bean of type");
	}

	@Test
	void twoAgentsForOneInjectionPointAskForAQualifier(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class, NeedsAgent.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> application.run(
				"--agent.providers.openai.base-url=http://localhost:1/v1", "--agent.providers.openai.model=m",
				"--agent.agents.one.provider=openai", "--agent.agents.two.provider=openai"));
		assertThat(output).contains("2 agents are configured").contains("@Qualifier(\"one\")");
	}

	@Test
	void misspelledKeysInsideAgentsAndProvidersAreReportedByName(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> application.run(
				"--agent.providers.openai.base-url=http://localhost:1/v1", "--agent.providers.openai.model=m",
				"--agent.providers.openai.api-kee=x", "--agent.agents.assistant.provider=openai",
				"--agent.agents.assistant.max-iteration=3",
				"--agent.agents.assistant.middleware.model-call-limit.per-sesion=5"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("agent.agents.assistant.max-iteration")
			.contains("agent.agents.assistant.middleware.model-call-limit.per-sesion")
			.contains("agent.providers.openai.api-kee")
			.doesNotContain("x\n");
	}

	@Test
	void toolCallBoundsMustBePositive(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> application.run(
				"--agent.providers.openai.base-url=http://localhost:1/v1", "--agent.providers.openai.model=m",
				"--agent.agents.assistant.provider=openai", "--agent.agents.assistant.max-parallel-tool-calls=0"));
		assertThat(output).contains("agent.agents.assistant.max-parallel-tool-calls must be at least 1 (was 0)");
	}

	@Test
	void providersWithoutAgentsSayWhyNoAgentExists(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run("--agent.providers.a.type=openai", "--agent.providers.a.base-url=http://localhost:1/v1",
				"--agent.providers.a.model=m", "--agent.providers.b.type=openai",
				"--agent.providers.b.base-url=http://localhost:1/v1", "--agent.providers.b.model=m")
			.close();
		assertThat(output).contains("No agent is created: agent.providers has 2 providers [a, b]")
			.contains("agent.agents.<name>.provider");
	}

	@Test
	void correctlySpelledNestedKeysStart() {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run("--agent.providers.openai.base-url=http://localhost:1/v1", "--agent.providers.openai.model=m",
				"--agent.agents.assistant.provider=openai", "--agent.agents.assistant.max-iterations=3",
				"--agent.agents.assistant.tool-timeout=5s", "--agent.agents.assistant.max-tool-calls-per-response=4",
				"--agent.agents.assistant.max-parallel-tool-calls=2",
				"--agent.agents.assistant.middleware.model-call-limit.per-session=5",
				"--agent.agents.assistant.middleware.human-in-the-loop.tools.get_weather=Check first")
			.close();
	}

	static class NeedsAgent {

		NeedsAgent(dev.agcore.runtime.Agent agent) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
			ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
			AgentAutoConfiguration.class })
	static class TestApplication {

	}

}
