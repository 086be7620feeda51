package dev.agcore.autoconfigure.agent;

import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.prompt.PromptTemplatesAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.SubAgentTool;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code agent.agents.<name>.agents}: configured agents offered to other
 * configured agents as tools.
 */
class SubAgentAutoConfigurationTests {

	// the researcher answers; the lead asks it once, then answers with what it said
	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
		List<Message> messages = request.messages();
		if (messages.get(0).text().equals("You research.")) {
			return ScriptedChatModel.text("Paris");
		}
		Message last = messages.get(messages.size() - 1);
		if (last instanceof ToolResultMessage result) {
			return ScriptedChatModel.text("Answer: " + result.text());
		}
		return ScriptedChatModel.toolCalls(new ToolCall("c1", "researcher", "{\"task\":\"capital of France?\"}"));
	});

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				PromptTemplatesAutoConfiguration.class, AgentAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model);

	@Test
	void anAgentListedUnderAnothersAgentsIsItsToolEvenWhenConfiguredAfterIt() {
		this.contextRunner
			.withPropertyValues("agent.agents.lead.model=scripted", "agent.agents.lead.system-prompt=You lead.",
					"agent.agents.lead.tools=", "agent.agents.lead.agents=researcher",
					"agent.agents.researcher.model=scripted", "agent.agents.researcher.system-prompt=You research.",
					"agent.agents.researcher.description=Finds facts on the web.")
			.run((context) -> {
				Agent lead = context.getBean("lead", Agent.class);
				Agent researcher = context.getBean("researcher", Agent.class);
				assertThat(lead.tools()).extracting(ToolSpec::name).containsExactly("researcher");
				assertThat(lead.tools().get(0).description()).isEqualTo("Finds facts on the web.");
				assertThat(lead.toolCallbacks()).singleElement()
					.isInstanceOfSatisfying(SubAgentTool.class, (tool) -> {
						assertThat(tool.agent()).isSameAs(researcher);
						assertThat(tool.maxDepth()).isEqualTo(SubAgentTool.DEFAULT_MAX_DEPTH);
					});
				assertThat(researcher.tools()).isEmpty();

				AgentResult result = lead.call("s1", "Where is the Eiffel tower?");

				assertThat(result.output()).isEqualTo("Answer: Paris");
				assertThat(researcher.history("s1/researcher/c1").block()).extracting(Message::text)
					.containsExactly("capital of France?", "Paris");
			});
	}

	@Test
	void subAgentsComeInAdditionToTheToolScopeWithTheConfiguredDepth() {
		this.contextRunner.withBean("echoTool", ToolCallback.class, AgentAutoConfigurationTests.EchoTool::new)
			.withPropertyValues("agent.max-sub-agent-depth=1", "agent.agents.lead.model=scripted",
					"agent.agents.lead.tools=echo", "agent.agents.lead.agents=researcher",
					"agent.agents.researcher.model=scripted")
			.run((context) -> {
				Agent lead = context.getBean("lead", Agent.class);
				assertThat(lead.tools()).extracting(ToolSpec::name).containsExactlyInAnyOrder("echo", "researcher");
				assertThat(lead.toolCallbacks()).filteredOn(SubAgentTool.class::isInstance)
					.singleElement()
					.satisfies((tool) -> assertThat(((SubAgentTool) tool).maxDepth()).isEqualTo(1));
			});
	}

	@Test
	void aSubAgentNamedLikeAnotherToolOfTheAgentFailsStartup() {
		this.contextRunner.withBean("echoTool", ToolCallback.class, AgentAutoConfigurationTests.EchoTool::new)
			.withPropertyValues("agent.agents.lead.model=scripted", "agent.agents.lead.agents=echo",
					"agent.agents.echo.model=scripted")
			.run((context) -> assertThat(failure(context.getStartupFailure()).getMessage())
				.startsWith("agent.agents.lead.agents: the agent 'echo' is offered as a tool of that name, which "
						+ "another tool of the agent has"));
	}

	@Test
	void anUnknownSubAgentFailsStartupListingTheAgents() {
		this.contextRunner
			.withPropertyValues("agent.agents.lead.model=scripted", "agent.agents.lead.agents=researcher,writer",
					"agent.agents.researcher.model=scripted")
			.run((context) -> assertThat(failure(context.getStartupFailure())).hasMessage(
					"agent.agents.lead.agents[1]: unknown agent 'writer'; the agents of agent.agents are "
							+ "[lead, researcher]"));
	}

	@Test
	void anAgentListingItselfFailsStartup() {
		this.contextRunner.withPropertyValues("agent.agents.lead.model=scripted", "agent.agents.lead.agents=lead")
			.run((context) -> assertThat(failure(context.getStartupFailure()))
				.hasMessage("agent.agents.lead.agents[0]: the agent 'lead' cannot be its own sub-agent"));
	}

	@Test
	void aCycleOfSubAgentsFailsStartupNamingIt() {
		this.contextRunner
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.agents=b",
					"agent.agents.b.model=scripted", "agent.agents.b.agents=c", "agent.agents.c.model=scripted",
					"agent.agents.c.agents=a")
			.run((context) -> assertThat(failure(context.getStartupFailure()))
				.hasMessage("agent.agents.a.agents: the sub-agents form a cycle a -> b -> c -> a"));
	}

	@Test
	void aDepthBelowOneFailsStartup() {
		this.contextRunner.withPropertyValues("agent.max-sub-agent-depth=0", "agent.agents.lead.model=scripted")
			.run((context) -> assertThat(failure(context.getStartupFailure()).getMessage())
				.startsWith("agent.max-sub-agent-depth must be at least 1"));
	}

	@Test
	void aSubAgentWhoseNameIsNoToolNameFailsStartup() {
		this.contextRunner
			.withPropertyValues("agent.agents.lead.model=scripted", "agent.agents.lead.agents=web.search",
					"agent.agents[web.search].model=scripted")
			.run((context) -> assertThat(failure(context.getStartupFailure()).getMessage())
				.startsWith("agent.agents.lead.agents[0]: The tool name of sub-agent 'web.search' must match"));
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
