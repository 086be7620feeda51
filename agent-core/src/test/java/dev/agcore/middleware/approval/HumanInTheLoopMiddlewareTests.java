package dev.agcore.middleware.approval;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.TestTools;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ResumeException;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.runtime.ToolDecision;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.permission.PermissionDecision;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class HumanInTheLoopMiddlewareTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final List<String> executed = new CopyOnWriteArrayList<>();

	@Test
	void gatedCallPausesTheTurnWhileOtherCallsRun() {
		Agent agent = agent(ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "read_file", "{\"path\":\"a\"}"),
						new ToolCall("c2", "delete_file", "{\"path\":\"a\"}")),
				text("unused")));

		AgentResult result = agent.call("s1", "clean up");

		assertThat(result.status()).isEqualTo(AgentResult.Status.INTERRUPTED);
		assertThat(result.pendingToolCalls()).singleElement().satisfies((pending) -> {
			assertThat(pending.id()).isEqualTo("c2");
			assertThat(pending.name()).isEqualTo("delete_file");
			assertThat(pending.reason()).isEqualTo("deletes data");
		});
		assertThat(this.executed).containsExactly("read_file:{\"path\":\"a\"}");
		assertThat(this.store.load("s1").block().messages()).as("history waits for the end of the turn").isEmpty();
		assertThat(this.store.loadPending("s1").block()).isNotNull();
	}

	@Test
	void pausedTurnResumesWithAnotherAgentInstanceOnTheSameStore() {
		agent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{\"path\":\"a\"}")))).call("s1",
				"delete a");
		// a "restarted" application: new model, new agent, same store
		ScriptedChatModel afterRestart = ScriptedChatModel.replaying(text("Deleted a."));
		Agent restarted = agent(afterRestart);

		AgentResult result = restarted.resume(ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve())))
			.block(Duration.ofSeconds(5));

		assertThat(result.status()).isEqualTo(AgentResult.Status.COMPLETED);
		assertThat(result.output()).isEqualTo("Deleted a.");
		assertThat(this.executed).containsExactly("delete_file:{\"path\":\"a\"}");
		List<Message> stored = this.store.load("s1").block().messages();
		assertThat(stored).extracting(Message::text).containsExactly("delete a", "", "deleted a", "Deleted a.");
		assertThat(this.store.loadPending("s1").block()).isNull();
		assertThat(afterRestart.requests().get(0).messages()).last().isInstanceOf(ToolResultMessage.class);
	}

	@Test
	void editedArgumentsAreUsedAndRecordedInTheConversation() {
		Agent agent = agent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{\"path\":\"/\"}")),
				text("Deleted tmp.")));
		agent.call("s1", "delete everything");

		AgentResult result = agent
			.resume(ResumeRequest.of("s1", Map.of("c1", ToolDecision.edit("{\"path\":\"/tmp\"}"))))
			.block(Duration.ofSeconds(5));

		assertThat(this.executed).containsExactly("delete_file:{\"path\":\"/tmp\"}");
		assertThat(result.toolExecutions()).singleElement()
			.satisfies((execution) -> assertThat(execution.arguments()).isEqualTo("{\"path\":\"/tmp\"}"));
		AssistantMessage asked = (AssistantMessage) this.store.load("s1").block().messages().get(1);
		assertThat(asked.toolCalls()).singleElement()
			.satisfies((call) -> assertThat(call.arguments()).isEqualTo("{\"path\":\"/tmp\"}"));
	}

	@Test
	void aCallThePermissionPolicyRefusesIsNotAskedForApprovalButRefused() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "delete_file", "{\"path\":\"a\"}"),
						new ToolCall("c2", "read_file", "{\"path\":\"a\"}")),
				text("I may not delete it."));
		Agent agent = agentBuilder(model)
			.permissionPolicy((agentName, tool, call) -> tool.spec().name().equals("delete_file")
					? PermissionDecision.deny("only admins delete") : PermissionDecision.allow())
			.build();

		AgentResult result = agent.call("s1", "delete a");

		assertThat(result.status()).isEqualTo(AgentResult.Status.COMPLETED);
		assertThat(result.output()).isEqualTo("I may not delete it.");
		assertThat(this.store.loadPending("s1").block()).isNull();
		assertThat(this.executed).containsExactly("read_file:{\"path\":\"a\"}");
		assertThat(model.requests().get(1).messages()).filteredOn(ToolResultMessage.class::isInstance)
			.extracting(Message::text)
			.containsExactly("Error: tool 'delete_file' was denied: only admins delete", "content");
	}

	@Test
	void aCallThePolicyAllowsIsStillAskedForApproval() {
		Agent agent = agentBuilder(ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "delete_file", "{\"path\":\"a\"}")), text("unused")))
			.permissionPolicy((agentName, tool, call) -> PermissionDecision.allow())
			.build();

		assertThat(agent.call("s1", "delete a").status()).isEqualTo(AgentResult.Status.INTERRUPTED);
		assertThat(this.executed).isEmpty();
	}

	@Test
	void rejectedCallNeverRunsAndTheModelIsToldWhy() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "delete_file", "{\"path\":\"a\"}")), text("OK, I will not delete it."));
		Agent agent = agent(model);
		agent.call("s1", "delete a");

		AgentResult result = agent.resume(ResumeRequest.of("s1", Map.of("c1", ToolDecision.reject("keep it"))))
			.block(Duration.ofSeconds(5));

		assertThat(this.executed).isEmpty();
		assertThat(result.output()).isEqualTo("OK, I will not delete it.");
		assertThat(model.requests().get(1).messages()).last()
			.isEqualTo(new ToolResultMessage("c1", "delete_file",
					"Error: a human rejected this call of tool 'delete_file': keep it", true));
	}

	@Test
	void streamEndsWithAnInterruptEventAndResumeStreamContinues() {
		Agent agent = agent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}")),
				text("Done now.")));

		List<AgentEvent> paused = agent.stream(AgentRequest.of("s1", "delete")).collectList().block(Duration.ofSeconds(5));
		List<AgentEvent> resumed = agent.resumeStream(ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve())))
			.collectList()
			.block(Duration.ofSeconds(5));

		assertThat(paused).extracting(AgentEvent::type).containsExactly("usage", "tool_call", "interrupt");
		assertThat(((AgentEvent.Interrupted) paused.get(2)).result().pendingToolCalls()).hasSize(1);
		assertThat(resumed).extracting(AgentEvent::type)
			.containsExactly("tool_call", "tool_result", "text", "text", "usage", "completed");
	}

	@Test
	void newMessageWhilePausedIsRefusedClearly() {
		Agent agent = agent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}"))));
		agent.call("s1", "delete");

		assertThatExceptionOfType(ResumeException.class).isThrownBy(() -> agent.call("s1", "hello?"))
			.withMessage("Session 's1' has tool calls waiting for a decision [delete_file (c1)];"
					+ " resume that turn before sending a new message");
	}

	@Test
	void decisionsMustMatchThePendingCalls() {
		Agent agent = agent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}"))));
		agent.call("s1", "delete");

		assertThatExceptionOfType(ResumeException.class)
			.isThrownBy(() -> agent.resume(ResumeRequest.of("s1", Map.of("c9", ToolDecision.approve()))).block())
			.withMessage("Decisions must name exactly the pending tool calls [c1]; missing: [c1]; unknown: [c9]");
		assertThatExceptionOfType(ResumeException.class)
			.isThrownBy(() -> agent.resume(ResumeRequest.of("other", Map.of())).block())
			.withMessage("Session 'other' has no turn waiting for a decision");
	}

	private Agent agent(ScriptedChatModel model) {
		return agentBuilder(model).build();
	}

	private AgentBuilder agentBuilder(ScriptedChatModel model) {
		return Agent.builder()
			.name("files")
			.model(model)
			.conversationStore(this.store)
			.tool(tool("read_file"))
			.tool(tool("delete_file"))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")));
	}

	private ToolCallback tool(String name) {
		return TestTools.tool(name, (arguments, context) -> {
			this.executed.add(name + ":" + arguments);
			return name.equals("delete_file") ? "deleted a" : "content";
		});
	}

}
