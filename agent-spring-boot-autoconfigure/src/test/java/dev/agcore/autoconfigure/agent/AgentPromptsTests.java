package dev.agcore.autoconfigure.agent;

import java.util.Locale;
import java.util.Map;

import com.github.jknack.handlebars.Handlebars;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.prompt.PromptTemplatesAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.SystemPromptVariables;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the system prompt layers of configured agents: base prompt, template,
 * environment.
 */
class AgentPromptsTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok"));

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				PromptTemplatesAutoConfiguration.class, AgentAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model);

	@Test
	void aConfiguredAgentRendersItsTemplateBetweenTheBaseAndTheEnvironment() {
		this.contextRunner
			.withPropertyValues("agent.base-system-prompt=Follow the shop's rules.",
					"agent.agents.support.model=scripted",
					"agent.agents.support.system-prompt-template=agents/support",
					"agent.agents.support.system-prompt-variables.shop=Tea & Co",
					"agent.agents.support.environment.locale=true",
					"agent.agents.support.environment.facts[Opening hours]=9 to 17")
			.run((context) -> {
				Agent agent = context.getBean("support", Agent.class);
				agent.call(new AgentRequest("s1", "hi", Map.of("customer", "Ada")).withLocale(Locale.FRANCE));
				assertThat(this.model.requests().get(0).messages().get(0).text()).isEqualTo("""
						Follow the shop's rules.

						You help Ada of Tea & Co.

						<environment>
						User locale: fr-FR
						Opening hours: 9 to 17
						</environment>""");
			});
	}

	@Test
	void systemPromptVariablesBeansFeedTheTemplate() {
		this.contextRunner
			.withBean(SystemPromptVariables.class,
					() -> (context) -> Mono.just(Map.of("shop", "Beans & Co for " + context.sessionId())))
			.withPropertyValues("agent.agents.support.model=scripted",
					"agent.agents.support.system-prompt-template=agents/support",
					"agent.agents.support.system-prompt-variables.shop=Tea & Co")
			.run((context) -> {
				context.getBean("support", Agent.class)
					.call(new AgentRequest("s7", "hi", Map.of("customer", "Ada")));
				assertThat(this.model.requests().get(0).messages().get(0).text())
					.isEqualTo("You help Ada of Beans & Co for s7.");
			});
	}

	@Test
	void anAgentsBasePromptReplacesTheSharedOneAndTheDefaultAgentHasTheSharedOne() {
		this.contextRunner.withPropertyValues("agent.base-system-prompt=Shared.")
			.run((context) -> {
				context.getBean("assistant", Agent.class).call("s1", "hi");
				assertThat(this.model.requests().get(0).messages().get(0).text()).isEqualTo("Shared.");
			});
		this.contextRunner
			.withPropertyValues("agent.base-system-prompt=Shared.", "agent.agents.a.model=scripted",
					"agent.agents.a.base-system-prompt=", "agent.agents.a.system-prompt=Own.")
			.run((context) -> {
				context.getBean("a", Agent.class).call("s2", "hi");
				assertThat(this.model.requests().get(this.model.requests().size() - 1).messages().get(0).text())
					.isEqualTo("Own.");
			});
	}

	@Test
	void anUnknownTemplateFailsStartupListingTheTemplates() {
		this.contextRunner
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.system-prompt-template=agents/suport")
			.run((context) -> assertThat(failure(context.getStartupFailure())).hasMessage(
					"agent.agents.a.system-prompt-template: no prompt template 'agents/suport'; templates: "
							+ "[agents/support, shared/tone, support/system]"));
	}

	@Test
	void textAndTemplateTogetherFailStartup() {
		this.contextRunner
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.system-prompt=Text.",
					"agent.agents.a.system-prompt-template=agents/support")
			.run((context) -> assertThat(failure(context.getStartupFailure())).hasMessage(
					"agent.agents.a.system-prompt and agent.agents.a.system-prompt-template are both set"));
	}

	@Test
	void variablesWithoutATemplateFailStartup() {
		this.contextRunner
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.system-prompt-variables.shop=x")
			.run((context) -> assertThat(failure(context.getStartupFailure())).hasMessage(
					"agent.agents.a.system-prompt-variables is set but agent.agents.a.system-prompt-template is not"));
	}

	@Test
	void aBadTimeZoneFailsStartup() {
		this.contextRunner
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.environment.date=true",
					"agent.agents.a.environment.time-zone=Mars/Olympus")
			.run((context) -> assertThat(failure(context.getStartupFailure()))
				.hasMessage("agent.agents.a.environment.time-zone: 'Mars/Olympus' is not a time zone"));
	}

	@Test
	void aTemplateWithoutHandlebarsFailsStartupSayingWhatToAdd() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Handlebars.class))
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.system-prompt-template=agents/support")
			.run((context) -> assertThat(failure(context.getStartupFailure())).hasMessage(
					"agent.agents.a.system-prompt-template names a template, but there are no prompt templates"));
	}

	private static AgentConfigurationException failure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof AgentConfigurationException configuration) {
				return configuration;
			}
		}
		throw new AssertionError("No AgentConfigurationException in " + failure);
	}

}
