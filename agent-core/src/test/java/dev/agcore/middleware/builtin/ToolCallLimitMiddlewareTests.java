package dev.agcore.middleware.builtin;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ToolCallLimitMiddlewareTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final AtomicInteger searches = new AtomicInteger();

	private final AtomicInteger fetches = new AtomicInteger();

	@Test
	void perToolLimitAnswersTheModelWithAnErrorWithoutRunningTheTool() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(search("c1"), search("c2"), search("c3"), fetch("c4")), text("done with what I have"));
		Agent agent = agent(model, ToolCallLimitMiddleware.builder().perTool("search", 2).meterRegistry(this.registry));

		AgentResult result = agent.call("s", "research");

		assertThat(result.output()).isEqualTo("done with what I have");
		assertThat(this.searches).hasValue(2);
		assertThat(this.fetches).hasValue(1);
		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.containsExactly("search c1", "search c2",
					"Error: tool call limit reached for 'search' (2 per turn); the call to 'search' was not run.",
					"fetch c4");
		assertThat(model.requests().get(1).messages()).filteredOn(ToolResultMessage.class::isInstance)
			.extracting("error")
			.containsExactly(false, false, true, false);
		assertThat(this.registry.get("agent.limit.exceeded")
			.tags("agent", "limited", "limit", "tool_calls_per_tool")
			.counter()
			.count()).isEqualTo(1);
	}

	@Test
	void perTurnLimitCountsAllToolsAcrossModelCalls() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(search("c1"), fetch("c2")),
				toolCalls(fetch("c3"), search("c4")), text("done"));
		Agent agent = agent(model, ToolCallLimitMiddleware.builder().perTurn(3));

		AgentResult result = agent.call("s", "research");

		assertThat(result.output()).isEqualTo("done");
		assertThat(this.searches.get() + this.fetches.get()).isEqualTo(3);
		assertThat(result.toolExecutions()).last()
			.extracting(ToolExecution::result)
			.isEqualTo("Error: tool call limit reached (3 per turn); the call to 'search' was not run.");
	}

	@Test
	void countsStartAgainWithEachTurn() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(search("c1")), text("one"),
				toolCalls(search("c2")), text("two"));
		Agent agent = agent(model, ToolCallLimitMiddleware.builder().perTool("search", 1));

		agent.call("s", "first");
		AgentResult second = agent.call("s", "second");

		assertThat(second.toolExecutions()).extracting(ToolExecution::error).containsExactly(false);
		assertThat(this.searches).hasValue(2);
	}

	@Test
	void endAnswersTheRefusedCallThenEndsTheTurnWithoutCallingTheModelAgain() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(search("c1"), search("c2")),
				text("never sent"));
		Agent agent = agent(model, ToolCallLimitMiddleware.builder().perTool("search", 1).exitBehavior(ExitBehavior.END));

		AgentResult result = agent.call("s", "research");

		assertThat(result.isCompleted()).isTrue();
		assertThat(result.output())
			.isEqualTo("Agent 'limited' stopped: tool call limit reached for 'search' (1 per turn).");
		assertThat(model.requests()).hasSize(1);
		assertThat(this.searches).hasValue(1);
		List<Message> stored = this.store.load("s").block().messages();
		assertThat(stored).extracting(Message::role)
			.extracting(Enum::name)
			.containsExactly("USER", "ASSISTANT", "TOOL", "TOOL", "ASSISTANT");
		BuiltinTestTools.assertWellFormed(stored);
	}

	@Test
	void failFailsTheTurnBeforeAnyToolOfThatResponseRuns() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(search("c1"), fetch("c2"), search("c3")),
				text("never sent"));
		Agent agent = agent(model, ToolCallLimitMiddleware.builder()
			.perTool("search", 1)
			.exitBehavior(ExitBehavior.FAIL)
			.meterRegistry(this.registry));

		assertThatExceptionOfType(LimitExceededException.class).isThrownBy(() -> agent.call("s", "research"))
			.withMessage("Agent 'limited' stopped: tool call limit reached for 'search' (1 per turn).")
			.satisfies((ex) -> assertThat(ex.limit()).isEqualTo("tool_calls_per_tool"));
		assertThat(this.searches.get() + this.fetches.get()).isZero();
		assertThat(this.store.load("s").block().messages()).isEmpty();
		assertThat(this.registry.get("agent.limit.exceeded").counter().count()).isEqualTo(1);
	}

	@Test
	void builderRejectsInvalidSettingsNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolCallLimitMiddleware.builder().perTool("search", 0))
			.withMessage("'perTool[search]' must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolCallLimitMiddleware.builder().perTurn(0))
			.withMessage("'perTurn' must be at least 1, was 0");
		assertThatIllegalStateException().isThrownBy(() -> ToolCallLimitMiddleware.builder().build())
			.withMessage("'perTurn' or 'perTool' must be set");
	}

	private Agent agent(ScriptedChatModel model, ToolCallLimitMiddleware.Builder limit) {
		return Agent.builder()
			.name("limited")
			.model(model)
			.conversationStore(this.store)
			.tool(BuiltinTestTools.counting("search", this.searches))
			.tool(BuiltinTestTools.counting("fetch", this.fetches))
			.middleware(limit.build())
			.build();
	}

	private static ToolCall search(String id) {
		return new ToolCall(id, "search", "{}");
	}

	private static ToolCall fetch(String id) {
		return new ToolCall(id, "fetch", "{}");
	}

}
