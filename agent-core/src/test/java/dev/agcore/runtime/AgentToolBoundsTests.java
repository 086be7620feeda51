package dev.agcore.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.agcore.runtime.AgentToolPolicyTests.toolResults;
import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * One model response cannot make the runtime run tool calls without bound.
 */
class AgentToolBoundsTests {

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger mostAtOnce = new AtomicInteger();

	private final AtomicInteger runs = new AtomicInteger();

	@Test
	void callsBeyondTheLimitOfOneResponseAreAnsweredWithAnErrorAndNeverRun() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(calls(40)), text("ok"));
		Agent agent = Agent.builder().name("bounded").model(model).tools(List.of(probe())).build();

		agent.call("s", "go");

		assertThat(this.runs).hasValue(32);
		List<ToolResultMessage> results = toolResults(model.requests().get(1));
		assertThat(results).hasSize(40);
		assertThat(results.subList(32, 40)).allSatisfy((result) -> {
			assertThat(result.error()).isTrue();
			assertThat(result.text()).contains("was not run: at most 32 tool calls of one response are run");
		});
		assertThat(results.subList(0, 32)).noneMatch(ToolResultMessage::error);
	}

	@Test
	void callsOfOneResponseRunAtMostTheConfiguredNumberAtOnce() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(calls(12)), text("ok"));
		Agent agent = Agent.builder()
			.name("bounded")
			.model(model)
			.tools(List.of(probe()))
			.maxParallelToolCalls(3)
			.build();

		agent.call("s", "go");

		assertThat(this.runs).hasValue(12);
		assertThat(this.mostAtOnce.get()).isBetween(1, 3);
	}

	@Test
	void boundsMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> Agent.builder().maxToolCallsPerResponse(0))
			.withMessage("'maxToolCallsPerResponse' must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> Agent.builder().maxParallelToolCalls(0))
			.withMessage("'maxParallelToolCalls' must be at least 1, was 0");
	}

	private dev.agcore.tool.ToolCallback probe() {
		return TestTools.tool("probe", (arguments, context) -> {
			int now = this.running.incrementAndGet();
			this.mostAtOnce.accumulateAndGet(now, Math::max);
			this.runs.incrementAndGet();
			Thread.sleep(20);
			this.running.decrementAndGet();
			return "done";
		});
	}

	private static ToolCall[] calls(int count) {
		return IntStream.range(0, count).mapToObj((i) -> new ToolCall("c" + i, "probe", "{}")).toArray(ToolCall[]::new);
	}

}
