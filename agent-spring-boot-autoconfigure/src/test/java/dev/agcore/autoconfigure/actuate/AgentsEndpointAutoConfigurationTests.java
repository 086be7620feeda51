package dev.agcore.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.actuate.AgentsEndpoint.AgentDescriptor;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolDescriptor;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentsEndpointAutoConfiguration} and {@link AgentsEndpoint}.
 */
class AgentsEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentsEndpointAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying().withModelName("scripted-1"))
		.withBean("weatherTools", WeatherTools.class);

	@Test
	void notCreatedUnlessExposed() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(AgentsEndpoint.class));
	}

	@Test
	void describesEveryAgent() {
		this.contextRunner.withUserConfiguration(AuditConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=agents",
					"agent.agents.assistant.system-prompt=You are helpful.", "agent.agents.assistant.tools=get_*",
					"agent.agents.assistant.max-iterations=4", "agent.agents.assistant.tool-timeout=5s",
					"agent.agents.assistant.permissions.deny=destructive",
					"agent.agents.assistant.max-tool-result-length=1000", "agent.agents.helper.tools=")
			.run((context) -> {
				AgentsEndpoint endpoint = context.getBean(AgentsEndpoint.class);
				assertThat(endpoint.agents().agents()).containsOnlyKeys("assistant", "helper", "custom");
				AgentDescriptor assistant = endpoint.agents().agents().get("assistant");
				assertThat(assistant.name()).isEqualTo("assistant");
				assertThat(assistant.provider()).isEqualTo("scripted");
				assertThat(assistant.model()).isEqualTo("scripted-1");
				assertThat(assistant.systemPromptLength()).isEqualTo("You are helpful.".length());
				assertThat(assistant.middleware()).containsExactly("audit");
				assertThat(assistant.toolScope()).containsExactly("get_*");
				assertThat(assistant.permissionPolicy()).startsWith("ToolPermissionRules")
					.contains("deny permissions [destructive]");
				assertThat(assistant.tools()).extracting(ToolDescriptor::name)
					.containsExactly("get_forecast", "get_weather");
				assertThat(assistant.tools().get(0).inputSchema())
					.isEqualTo(context.getBean("assistant", Agent.class).toolCallbacks().get(0).spec().inputSchema());
				assertThat(assistant.limits()).isEqualTo(new AgentsEndpoint.Limits(4, "PT5M", "PT5S", 1000));
				AgentDescriptor helper = endpoint.agent("helper");
				assertThat(helper).isNotNull();
				assertThat(helper.tools()).isEmpty();
				// no rules: destructive tools are denied unless named (none is)
				assertThat(helper.permissionPolicy()).isEqualTo("deny destructive tools");
				assertThat(helper.limits()).isEqualTo(new AgentsEndpoint.Limits(10, "PT5M", "PT30S", 65536));
				// built by the application: only what the Agent itself tells
				AgentDescriptor custom = endpoint.agent("custom");
				assertThat(custom).isNotNull();
				assertThat(custom.toolScope()).isNull();
				assertThat(custom.permissionPolicy()).isNull();
				assertThat(custom.limits()).isEqualTo(new AgentsEndpoint.Limits(3, "PT1M", null, null));
			});
	}

	@Test
	void unknownAgentIsNull() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=agents")
			.run((context) -> assertThat(context.getBean(AgentsEndpoint.class).agent("nobody")).isNull());
	}

	@Test
	void userEndpointWins() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=agents")
			.withBean("myEndpoint", AgentsEndpoint.class,
					() -> new AgentsEndpoint(new AgentRegistry(List.of()), null))
			.run((context) -> assertThat(context).hasSingleBean(AgentsEndpoint.class).hasBean("myEndpoint"));
	}

	@Configuration(proxyBeanMethods = false)
	static class AuditConfiguration {

		@Bean
		AgentMiddleware audit() {
			return new AgentMiddleware() {

				@Override
				public String name() {
					return "audit";
				}

			};
		}

		@Bean
		Agent custom(ChatModel scripted) {
			return Agent.builder().name("custom").model(scripted).maxIterations(3).turnTimeout(Duration.ofMinutes(1)).build();
		}

	}

}
