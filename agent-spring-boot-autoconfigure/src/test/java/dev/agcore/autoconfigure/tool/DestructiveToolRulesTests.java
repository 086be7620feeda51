package dev.agcore.autoconfigure.tool;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default policy of destructive tools ({@link DestructiveToolRules}): a destructive
 * tool that no rule of the agent names is denied, whether it is the application's own
 * {@code @Tool(permission = "destructive")} or an MCP server's; a rule that names it, or
 * allows {@code destructive}, lets it run (or wait for a person's approval).
 */
@ExtendWith(OutputCaptureExtension.class)
class DestructiveToolRulesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class))
		.withBean("noteTools", NoteTools.class)
		.withBean("weatherTools", WeatherTools.class);

	@Test
	void aDestructiveToolNoRuleNamesIsDeniedAndTheOthersRun() {
		ScriptedChatModel model = purgeThenRead();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.system-prompt=Hi")
			.run((context) -> {
				AgentResult result = context.getBean(Agent.class).call("s1", "Purge, then read note 1");
				assertThat(result.toolExecutions()).extracting(ToolExecution::result)
					.containsExactly("Error: tool 'notes_purge' was denied: tool 'notes_purge' is destructive and no "
							+ "rule of agent 'assistant' allows it", "Note 1");
				assertThat(context.getBean(NoteTools.class).calls()).containsExactly("notes_read");
			});
	}

	@Test
	void theAgentMadeWhenNoneIsConfiguredDeniesThemToo() {
		ScriptedChatModel model = purgeThenRead();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model).run((context) -> {
			context.getBean(Agent.class).call("s1", "Purge, then read note 1");
			assertThat(context.getBean(NoteTools.class).calls()).containsExactly("notes_read");
		});
	}

	@Test
	void aToolNamedByAnAllowRuleRuns() {
		ScriptedChatModel model = purgeThenRead();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.permissions.allow-tools=notes_purge")
			.run((context) -> {
				context.getBean(Agent.class).call("s1", "Purge, then read note 1");
				// an allow rule allows only what it names: notes_read (read-only) is now denied
				assertThat(context.getBean(NoteTools.class).calls()).containsExactly("notes_purge");
			});
	}

	@Test
	void allowingDestructiveAsAPermissionAllowsEveryDestructiveTool() {
		ScriptedChatModel model = purgeThenRead();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.permissions.allow=read-only,write,destructive")
			.run((context) -> {
				context.getBean(Agent.class).call("s1", "Purge, then read note 1");
				assertThat(context.getBean(NoteTools.class).calls()).containsExactlyInAnyOrder("notes_purge",
						"notes_read");
			});
	}

	@Test
	void aToolNamedByAnApprovalRuleWaitsForAPersonInsteadOfBeingDenied() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "notes_purge", "{}")), ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.middleware.human-in-the-loop.tools.notes_purge=Purging is final")
			.run((context) -> {
				AgentResult result = context.getBean(Agent.class).call("s1", "Purge my notes");
				assertThat(result.isInterrupted()).isTrue();
				assertThat(context.getBean(NoteTools.class).calls()).isEmpty();
			});
	}

	@Test
	void theDefaultCanBeSwitchedOff() {
		ScriptedChatModel model = purgeThenRead();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.system-prompt=Hi", "agent.tools.deny-unnamed-destructive=false")
			.run((context) -> {
				context.getBean(Agent.class).call("s1", "Purge, then read note 1");
				assertThat(context.getBean(NoteTools.class).calls()).containsExactlyInAnyOrder("notes_purge",
						"notes_read");
				assertThat(context.getBean(AgentTools.class)
					.settings(context.getBean(Agent.class))
					.orElseThrow()
					.permissionPolicy()).isEqualTo("allow all");
			});
	}

	@Test
	void startupLogsTheToolsDeniedOncePerAgent(CapturedOutput output) {
		this.contextRunner.withBean("scripted", ChatModel.class, ScriptedChatModel::replaying)
			.withPropertyValues("agent.agents.assistant.system-prompt=Hi",
					"agent.agents.purger.permissions.allow-tools=notes_purge",
					"agent.agents.admin.permissions.tool-roles.admin_reset=ADMIN")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("Agent 'assistant' denies the destructive tools that no rule "
						+ "names: [notes_purge]; allow them with agent.agents.assistant.permissions."
						+ "allow-tools, or ask a person with agent.agents.assistant.middleware.human-in-the-loop.tools");
				assertThat(output).contains("Agent 'admin' denies the destructive tools that no rule names: "
						+ "[notes_purge];");
				assertThat(output).doesNotContain("Agent 'purger' denies");
			});
	}

	private static ScriptedChatModel purgeThenRead() {
		return ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "notes_purge", "{}"),
						new ToolCall("call-2", "notes_read", "{\"id\": \"1\"}")),
				ScriptedChatModel.text("Done."));
	}

}
