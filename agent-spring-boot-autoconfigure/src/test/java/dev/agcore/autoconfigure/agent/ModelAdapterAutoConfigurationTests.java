package dev.agcore.autoconfigure.agent;

import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ModelAdapter;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the model adapters of configured agents: the built-ins unless switched off,
 * then {@link ModelAdapter} beans.
 */
class ModelAdapterAutoConfigurationTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("ok"))
		.withModelName("o3-mini");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class))
		.withBean("reasoner", ChatModel.class, () -> this.model)
		.withBean("seeding", ModelAdapter.class, SeedingAdapter::new)
		.withPropertyValues("agent.agents.helper.provider=reasoner");

	@Test
	void builtInsApplyThenAdapterBeans() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean("helper", Agent.class)
				.call(AgentRequest.of("s1", "hi").withOptions(ChatOptions.builder().temperature(0.7).build()));
			// o3-mini takes no temperature: the built-in dropped it, the bean added a seed
			assertThat(this.model.requests().get(0).options().temperature()).isNull();
			assertThat(this.model.requests().get(0).options().seed()).isEqualTo(42L);
		});
	}

	@Test
	void builtInsCanBeSwitchedOffWhileBeansStillApply() {
		this.contextRunner.withPropertyValues("agent.model-adapters.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed();
			Agent agent = context.getBean("helper", Agent.class);
			agent.call(AgentRequest.of("s1", "hi")
				.withOptions(ChatOptions.builder().temperature(0.7).build()));
			assertThat(this.model.requests().get(0).options().temperature()).isEqualTo(0.7);
			assertThat(this.model.requests().get(0).options().seed()).isEqualTo(42L);
		});
	}

	static class SeedingAdapter implements ModelAdapter {

		@Override
		public boolean supports(String provider, String modelName) {
			return true;
		}

		@Override
		public ChatRequest adapt(ChatRequest request) {
			return new ChatRequest(request.messages(), request.tools(), request.options().mutate().seed(42L).build());
		}

	}

}
