package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.message.ToolCall;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolProgress;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for agents given a {@link dev.agcore.tool.ToolSource} (tools that come and go,
 * such as those of MCP servers), and for progress reported by running tools.
 */
class AgentToolSourceTests {

	private final List<ToolCallback> offered = new CopyOnWriteArrayList<>();

	@Test
	void toolsOfASourceAreAskedForOnEveryModelCallAndRunWhenCalled() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("none yet"),
				toolCalls(new ToolCall("c1", "remote_echo", "{\"text\":\"hi\"}")), text("echoed"));
		Agent agent = Agent.builder().name("a").model(model).toolSource(() -> List.copyOf(this.offered), ToolScope.all()).build();

		agent.call("s1", "anything?");
		this.offered.add(TestTools.tool("remote_echo", (args, context) -> "echo " + args));
		AgentResult result = agent.call("s1", "echo hi");

		assertThat(model.requests().get(0).tools()).isEmpty();
		assertThat(model.requests().get(1).tools()).extracting(ToolSpec::name).containsExactly("remote_echo");
		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.result()).isEqualTo("echo {\"text\":\"hi\"}");
			assertThat(execution.error()).isFalse();
		});
		assertThat(agent.toolCallbacks()).extracting((tool) -> tool.spec().name()).containsExactly("remote_echo");
	}

	@Test
	void aToolThatWentAwayIsAnErrorForTheModelNotAFailedTurn() {
		this.offered.add(TestTools.tool("remote_echo", (args, context) -> "echo"));
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			if (request.messages().size() == 1) {
				this.offered.clear();
				return toolCalls(new ToolCall("c1", "remote_echo", "{}"));
			}
			return text("it is gone");
		});
		Agent agent = Agent.builder().name("a").model(model).toolSource(() -> List.copyOf(this.offered), ToolScope.all()).build();

		AgentResult result = agent.call("s1", "echo");

		assertThat(result.output()).isEqualTo("it is gone");
		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.error()).isTrue();
			assertThat(execution.result()).isEqualTo("Error: unknown tool 'remote_echo'. Available tools: ");
		});
	}

	@Test
	void theScopeFiltersASourceAndTheAgentsOwnToolWinsANameClash() {
		this.offered.add(TestTools.tool("lookup", (args, context) -> "remote"));
		this.offered.add(TestTools.tool("notes_add", (args, context) -> "remote"));
		this.offered.add(TestTools.tool("admin_drop", (args, context) -> "remote"));
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "lookup", "{}")),
				text("done"));
		Agent agent = Agent.builder()
			.name("a")
			.model(model)
			.tool(TestTools.tool("lookup", (args, context) -> "own"))
			.toolSource(() -> List.copyOf(this.offered), ToolScope.of("lookup", "notes_*"))
			.build();

		AgentResult result = agent.call("s1", "look it up");

		assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name).containsExactly("lookup", "notes_add");
		assertThat(result.toolExecutions()).singleElement().extracting(ToolExecution::result).isEqualTo("own");
	}

	@Test
	void progressOfARunningToolIsStreamedBetweenItsCallAndResult() {
		ToolCallback slow = TestTools.tool("slow", (args, context) -> {
			context.progress().report(1, 3.0, "first");
			context.progress().report(2, null, "x".repeat(600));
			return "done";
		});
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "slow", "{}")),
				text("ok"));
		Agent agent = Agent.builder().name("a").model(model).tool(slow).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "go")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type)
			.containsSubsequence("tool_call", "tool_progress", "tool_progress", "tool_result", "completed");
		List<AgentEvent.ToolProgress> progress = events.stream()
			.filter(AgentEvent.ToolProgress.class::isInstance)
			.map(AgentEvent.ToolProgress.class::cast)
			.toList();
		assertThat(progress.get(0)).isEqualTo(new AgentEvent.ToolProgress("c1", "slow", 1, 3.0, "first"));
		assertThat(progress.get(1).total()).isNull();
		assertThat(progress.get(1).message()).hasSize(AgentEvent.ToolProgress.MAX_MESSAGE_LENGTH);
	}

	@Test
	void progressOfAToolCalledWithoutStreamingGoesNowhere() {
		ToolCallback slow = TestTools.tool("slow", (args, context) -> {
			context.progress().report(1, 1.0, "half");
			return "done";
		});
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "slow", "{}")),
				text("ok"));

		AgentResult result = Agent.builder().name("a").model(model).tool(slow).build().call("s1", "go");

		assertThat(result.output()).isEqualTo("ok");
		assertThat(new ToolContext("c", "s", "a", Map.of()).progress()).isSameAs(ToolProgress.NONE);
	}

}
