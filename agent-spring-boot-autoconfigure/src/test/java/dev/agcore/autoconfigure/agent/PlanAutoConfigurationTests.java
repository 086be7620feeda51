package dev.agcore.autoconfigure.agent;

import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.prompt.PromptTemplatesAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.model.ChatModel;
import dev.agcore.plan.Plan;
import dev.agcore.plan.PlanParser;
import dev.agcore.plan.task.TaskAgent;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code agent.agents.<name>.plan}: an agent that plans is a {@link TaskAgent}
 * around the configured agent.
 */
class PlanAutoConfigurationTests {

	static final String PLAN = "{\"steps\":[{\"description\":\"Look it up\"},{\"description\":\"Answer\"}]}";

	/** Plans when asked by the planner's system prompt, else does the step. */
	static ScriptedChatModel planningModel() {
		return ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			if (messages.get(0).text().startsWith("You plan work")) {
				return ScriptedChatModel.text(PLAN);
			}
			String step = messages.get(messages.size() - 1).text();
			return ScriptedChatModel.text("did: " + step.substring(step.lastIndexOf('\n') + 1));
		});
	}

	private final ScriptedChatModel model = planningModel();

	private final ScriptedChatModel planner = ScriptedChatModel.replaying(ScriptedChatModel.text(PLAN));

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				PromptTemplatesAutoConfiguration.class, AgentAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model)
		.withBean("planner", ChatModel.class, () -> this.planner)
		.withPropertyValues("agent.agents.helper.model=scripted");

	@Test
	void planEnabledRegistersATaskAgentUnderTheAgentsName() {
		this.contextRunner
			.withPropertyValues("agent.agents.helper.plan.enabled=true", "agent.agents.helper.plan.max-steps=3",
					"agent.agents.helper.plan.replan=true", "agent.agents.helper.plan.parallelism=2")
			.run((context) -> {
				Agent helper = context.getBean("helper", Agent.class);
				assertThat(helper).isInstanceOf(TaskAgent.class);
				assertThat(context.getBean(AgentRegistry.class).get("helper")).isSameAs(helper);
				assertThat(((TaskAgent) helper).delegate()).isNotInstanceOf(TaskAgent.class);

				AgentResult result = helper.call("s1", "What is the capital of France?");

				assertThat(result.output()).isEqualTo("did: Step 2: Answer");
				assertThat(this.planner.requests()).isEmpty();
			});
	}

	@Test
	void plansComeFromTheNamedPlanningModel() {
		this.contextRunner
			.withPropertyValues("agent.agents.helper.plan.enabled=true", "agent.agents.helper.plan.model=planner")
			.run((context) -> {
				Plan plan = ((TaskAgent) context.getBean("helper", Agent.class)).plan("s1", "g").block();
				assertThat(plan.steps()).hasSize(2);
				assertThat(this.planner.requests()).hasSize(1);
			});
	}

	@Test
	void withoutPlanEnabledTheAgentIsNoTaskAgent() {
		this.contextRunner.run((context) -> assertThat(context.getBean("helper", Agent.class))
			.isNotInstanceOf(TaskAgent.class));
	}

	@Test
	void aPlanParserBeanReplacesTheJsonOne() {
		PlanParser parser = (raw, goal) -> Plan.of(goal, List.of("only step"));
		this.contextRunner.withBean(PlanParser.class, () -> parser)
			.withPropertyValues("agent.agents.helper.plan.enabled=true")
			.run((context) -> {
				assertThat(context.getBean(PlanParser.class)).isSameAs(parser);
				Plan plan = ((TaskAgent) context.getBean("helper", Agent.class)).plan("s1", "g").block();
				assertThat(plan.steps()).singleElement().satisfies((step) -> assertThat(step.description())
					.isEqualTo("only step"));
			});
	}

	@Test
	void badPlanSettingsFailStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.agents.helper.plan.enabled=true", "agent.agents.helper.plan.parallelism=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.agents.helper.plan.parallelism must be at least 1"));
		this.contextRunner
			.withPropertyValues("agent.agents.helper.plan.enabled=true", "agent.agents.helper.plan.max-steps=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.agents.helper.plan.max-steps"));
		this.contextRunner
			.withPropertyValues("agent.agents.helper.plan.enabled=true", "agent.agents.helper.plan.model=nope")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.agents.helper.plan.model: unknown model 'nope'"));
	}

}
