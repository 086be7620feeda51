package dev.agcore.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A turn paused for approval is never lost: a resumption that is cancelled or fails gives
 * it back, and while one runs the session takes no new message.
 */
class PausedTurnTests {

	private static final ResumeRequest APPROVE = ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve()));

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final CountDownLatch toolStarted = new CountDownLatch(1);

	private final CountDownLatch releaseTool = new CountDownLatch(1);

	private final AtomicBoolean blockTool = new AtomicBoolean(true);

	@AfterEach
	void releaseBlockedTool() {
		this.releaseTool.countDown();
	}

	@Test
	void resumptionCancelledWhileAToolRunsLeavesTheTurnPausedToBeResumedAgain() throws Exception {
		Agent agent = pausedAgent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}")),
				text("Deleted.")));

		Disposable subscription = agent.resumeStream(APPROVE).subscribeOn(Schedulers.boundedElastic()).subscribe();
		assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();
		subscription.dispose();

		awaitTrue(this::resumable);
		this.blockTool.set(false);
		this.releaseTool.countDown();
		AgentResult resumed = agent.resume(APPROVE).block(Duration.ofSeconds(5));
		assertThat(resumed.status()).isEqualTo(AgentResult.Status.COMPLETED);
		assertThat(resumed.output()).isEqualTo("Deleted.");
		assertThat(this.store.loadPending("s1").block()).isNull();
		assertThat(this.store.load("s1").block()).extracting(Message::text)
			.containsExactly("delete", "", "deleted", "Deleted.");
	}

	@Test
	void resumptionCancelledAfterItsFirstEventLeavesTheTurnPaused() {
		this.blockTool.set(false);
		Agent agent = pausedAgent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}")),
				text("Deleted.")));

		AgentEvent first = agent.resumeStream(APPROVE).blockFirst(Duration.ofSeconds(5));

		assertThat(first).isInstanceOf(AgentEvent.ToolCallStarted.class);
		awaitTrue(this::resumable);
		assertThat(this.store.load("s1").block()).isEmpty();
	}

	@Test
	void resumptionThatFailsLeavesTheTurnPausedToBeResumedAgain() {
		AtomicBoolean modelDown = new AtomicBoolean();
		Agent agent = pausedAgent(ScriptedChatModel.answering((request) -> {
			if (request.messages().size() < 3) {
				return toolCalls(new ToolCall("c1", "delete_file", "{}"));
			}
			if (modelDown.get()) {
				throw new ModelAuthenticationException("scripted", 401, "bad key");
			}
			return text("Deleted.");
		}));
		this.blockTool.set(false);
		modelDown.set(true);

		assertThatExceptionOfType(ModelAuthenticationException.class)
			.isThrownBy(() -> agent.resume(APPROVE).block(Duration.ofSeconds(5)));

		assertThat(this.store.loadPending("s1").block()).isNotNull();
		assertThat(this.store.load("s1").block()).isEmpty();
		assertThatExceptionOfType(ResumeException.class).as("still paused").isThrownBy(() -> agent.call("s1", "hi"));
		modelDown.set(false);
		assertThat(agent.resume(APPROVE).block(Duration.ofSeconds(5)).output()).isEqualTo("Deleted.");
		assertThat(this.store.loadPending("s1").block()).isNull();
	}

	@Test
	void newMessageWhileAResumptionRunsIsRefusedAsForAPausedTurn() throws Exception {
		Agent agent = pausedAgent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}")),
				text("Deleted."), text("never asked")));

		Disposable resuming = agent.resume(APPROVE).subscribeOn(Schedulers.boundedElastic()).subscribe();
		try {
			assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();

			assertThatExceptionOfType(ResumeException.class).isThrownBy(() -> agent.call("s1", "hello?"))
				.withMessageContaining("Session 's1' has tool calls waiting for a decision");
			assertThatExceptionOfType(ResumeException.class)
				.isThrownBy(() -> agent.resume(APPROVE).block(Duration.ofSeconds(5)))
				.withMessage("The paused turn of session 's1' is already being resumed");
		}
		finally {
			this.releaseTool.countDown();
		}
		awaitTrue(() -> this.store.loadPending("s1").block() == null);
		assertThat(this.store.load("s1").block()).extracting(Message::text)
			.containsExactly("delete", "", "deleted", "Deleted.");
		resuming.dispose();
	}

	@Test
	void resumedTurnThatPausesAgainKeepsItsNewPause() {
		Agent agent = pausedAgent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}")),
				toolCalls(new ToolCall("c2", "delete_file", "{}")), text("Deleted both.")));
		this.blockTool.set(false);

		AgentResult again = agent.resume(APPROVE).block(Duration.ofSeconds(5));

		assertThat(again.status()).isEqualTo(AgentResult.Status.INTERRUPTED);
		assertThat(this.store.loadPending("s1").block().pendingCalls()).singleElement()
			.satisfies((call) -> assertThat(call.id()).isEqualTo("c2"));
		AgentResult done = agent.resume(ResumeRequest.of("s1", Map.of("c2", ToolDecision.approve())))
			.block(Duration.ofSeconds(5));
		assertThat(done.output()).isEqualTo("Deleted both.");
		assertThat(this.store.loadPending("s1").block()).isNull();
	}

	/** An agent whose session s1 waits for a decision on delete_file (c1). */
	private Agent pausedAgent(ScriptedChatModel model) {
		Agent agent = Agent.builder()
			.name("files")
			.model(model)
			.conversationStore(this.store)
			.tool(TestTools.tool("delete_file", (arguments, context) -> {
				if (this.blockTool.get()) {
					this.toolStarted.countDown();
					this.releaseTool.await(10, TimeUnit.SECONDS);
				}
				return "deleted";
			}))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")))
			.build();
		AgentResult paused = agent.call("s1", "delete");
		assertThat(paused.status()).isEqualTo(AgentResult.Status.INTERRUPTED);
		return agent;
	}

	/**
	 * Whether the paused turn can be claimed for a resumption: it is still stored, and no
	 * resumption holds it. Gives the claim back at once.
	 */
	private boolean resumable() {
		PendingTurn pending = this.store.loadPending("s1").block();
		if (pending == null || !this.store.claimPending("s1", pending).block()) {
			return false;
		}
		this.store.releasePending("s1", pending).block();
		return true;
	}

	private static void awaitTrue(BooleanSupplier condition) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("condition not met within 5 seconds").isLessThan(deadline);
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

}
