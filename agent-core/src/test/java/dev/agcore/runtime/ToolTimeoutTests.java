package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import static dev.agcore.runtime.AgentToolPolicyTests.toolResults;
import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tool's timeout holds on every path, even for a single call made from a thread that
 * may block and a tool that ignores interruption.
 */
class ToolTimeoutTests {

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicBoolean finished = new AtomicBoolean();

	@AfterEach
	void releaseTheTool() {
		this.release.countDown();
	}

	@Test
	@Timeout(10)
	void singleCallThatIgnoresInterruptionEndsAtItsTimeout() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "stubborn", "{}")),
				text("ok"));
		Agent agent = Agent.builder()
			.name("timed")
			.model(model)
			.tools(List.of(TestTools.tool("stubborn", (arguments, context) -> {
				awaitIgnoringInterrupts();
				this.finished.set(true);
				return "late";
			})))
			.toolTimeout(Duration.ofMillis(200))
			.build();

		AgentResult result = agent.call("s", "go");

		// the turn ended while the tool is still blocked: the timeout did not wait for it
		assertThat(this.finished).isFalse();
		assertThat(result.isCompleted()).isTrue();
		ToolResultMessage sent = toolResults(model.requests().get(1)).get(0);
		assertThat(sent.error()).isTrue();
		assertThat(sent.text()).contains("200");
	}

	@Test
	@Timeout(10)
	void timeoutHoldsWhenTheStubbornToolHoldsTheToolSchedulersOnlyThread() {
		// the timeout's answer must not wait for a worker of the scheduler the tool blocks
		Scheduler oneThread = Schedulers.newBoundedElastic(1, 10, "one-tool-thread");
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "stubborn", "{}")),
				text("ok"));
		Agent agent = Agent.builder()
			.name("timed")
			.model(model)
			.tools(List.of(TestTools.tool("stubborn", (arguments, context) -> {
				awaitIgnoringInterrupts();
				this.finished.set(true);
				return "late";
			})))
			.toolScheduler(oneThread)
			.toolTimeout(Duration.ofMillis(200))
			.build();

		try {
			AgentResult result = agent.call("s", "go");

			assertThat(this.finished).isFalse();
			assertThat(result.isCompleted()).isTrue();
			assertThat(toolResults(model.requests().get(1)).get(0).text()).contains("200");
		}
		finally {
			this.release.countDown();
			oneThread.dispose();
		}
	}

	@Test
	void deadlineStartsWhenTheToolStartsNotWhenItIsQueued() {
		// one worker thread: the second call waits 500 ms in the scheduler's queue for the
		// first; with the deadline counted from the queue it would overrun its 850 ms. The
		// margins both ways leave room for a loaded machine
		Scheduler oneThread = Schedulers.newBoundedElastic(1, 10, "one-tool-thread");
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "nap", "{}"), new ToolCall("c2", "nap", "{}")), text("ok"));
		Agent agent = Agent.builder()
			.name("queued")
			.model(model)
			.tools(List.of(TestTools.tool("nap", (arguments, context) -> {
				Thread.sleep(500);
				return "rested";
			})))
			.toolScheduler(oneThread)
			.toolTimeout(Duration.ofMillis(850))
			.build();

		try {
			agent.call("s", "go");
		}
		finally {
			oneThread.dispose();
		}

		assertThat(toolResults(model.requests().get(1))).extracting(ToolResultMessage::text)
			.containsExactly("rested", "rested");
	}

	private void awaitIgnoringInterrupts() {
		while (true) {
			try {
				if (this.release.await(10, TimeUnit.SECONDS)) {
					return;
				}
			}
			catch (InterruptedException ex) {
				// a stubborn tool: goes on waiting
			}
		}
	}

}
