package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelRequestException;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A turn paused for approval is never lost: a resumption that is cancelled or fails gives
 * it back, with the results of the decided calls that ran, so they never run twice; while
 * one runs the session takes no new message.
 */
class PausedTurnTests {

	private static final ResumeRequest APPROVE = ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve()));

	private static final ResumeRequest NO_DECISIONS = ResumeRequest.of("s1", Map.of());

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final CountDownLatch toolStarted = new CountDownLatch(1);

	private final CountDownLatch releaseTool = new CountDownLatch(1);

	private final AtomicBoolean blockTool = new AtomicBoolean(true);

	private final AtomicInteger toolRuns = new AtomicInteger();

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
		assertThat(this.store.load("s1").block().messages()).extracting(Message::text)
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
		assertThat(this.store.load("s1").block().messages()).isEmpty();
	}

	@Test
	void resumptionThatFailsAfterTheApprovedCallRanKeepsItsResultAndGoesOnWithNoDecisions() {
		AtomicBoolean modelDown = new AtomicBoolean(true);
		Agent agent = failingAfterTheToolRan(modelDown);

		PendingTurn waiting = this.store.loadPending("s1").block(Duration.ofSeconds(5));
		assertThat(waiting.pendingCalls()).as("nothing waits for a decision").isEmpty();
		assertThat(waiting.messages()).extracting(Message::text).containsExactly("delete", "", "deleted");
		assertThat(this.store.load("s1").block().messages()).isEmpty();
		modelDown.set(false);
		AgentResult resumed = agent.resume(NO_DECISIONS).block(Duration.ofSeconds(5));

		assertThat(resumed.status()).isEqualTo(AgentResult.Status.COMPLETED);
		assertThat(resumed.output()).isEqualTo("Deleted.");
		assertThat(this.toolRuns).as("the approved call ran once").hasValue(1);
		assertThat(this.store.loadPending("s1").block()).isNull();
		List<Message> stored = this.store.load("s1").block().messages();
		assertThat(stored).extracting(Message::text).containsExactly("delete", "", "deleted", "Deleted.");
		assertThat(stored).filteredOn(ToolResultMessage.class::isInstance).singleElement()
			.satisfies((result) -> assertThat(((ToolResultMessage) result).toolCallId()).isEqualTo("c1"));
	}

	@Test
	void resumptionCancelledAfterTheToolResultKeepsItAndGoesOnWithNoDecisions() {
		this.blockTool.set(false);
		AtomicBoolean modelHangs = new AtomicBoolean(true);
		Agent agent = pausedAgent(hangingAfterTools(modelHangs));

		StepVerifier.create(agent.resumeStream(APPROVE))
			.expectNextMatches(AgentEvent.ToolCallStarted.class::isInstance)
			.expectNextMatches(AgentEvent.ToolCallCompleted.class::isInstance)
			.thenCancel()
			.verify(Duration.ofSeconds(5));

		PendingTurn waiting = awaitReleased();
		assertThat(waiting.pendingCalls()).isEmpty();
		assertThat(waiting.messages()).extracting(Message::text).containsExactly("delete", "", "deleted");
		modelHangs.set(false);
		StepVerifier.create(agent.resumeStream(NO_DECISIONS).filter((event) -> !(event instanceof AgentEvent.UsageReported)))
			.expectNextMatches((event) -> event instanceof AgentEvent.TextDelta text && text.text().equals("Deleted."))
			.expectNextMatches((event) -> event instanceof AgentEvent.Completed completed
					&& completed.result().output().equals("Deleted."))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.toolRuns).as("the approved call ran once").hasValue(1);
		assertThat(this.store.loadPending("s1").block()).isNull();
		assertThat(this.store.load("s1").block().messages()).extracting(Message::text)
			.containsExactly("delete", "", "deleted", "Deleted.");
	}

	@Test
	void resumptionCancelledWhileOneOfTwoApprovedCallsRunsKeepsTheResultOfTheOther() throws Exception {
		ToolCall slow = new ToolCall("c1", "delete_file", "{\"path\":\"a\"}");
		ToolCall fast = new ToolCall("c2", "delete_file", "{\"path\":\"b\"}");
		Agent agent = pausedAgent(ScriptedChatModel.replaying(toolCalls(slow, fast), text("Deleted both.")),
				(arguments) -> arguments.contains("\"a\""));
		ResumeRequest approveBoth = ResumeRequest.of("s1",
				Map.of("c1", ToolDecision.approve(), "c2", ToolDecision.edit("{\"path\":\"b2\"}")));

		StepVerifier.create(agent.resumeStream(approveBoth))
			.expectNextCount(2)
			.expectNextMatches((event) -> event instanceof AgentEvent.ToolCallCompleted completed
					&& completed.id().equals("c2"))
			// the calls run in parallel: the slow one may start after the fast one finished
			.then(() -> assertThat(awaitUninterruptibly(this.toolStarted)).isTrue())
			.thenCancel()
			.verify(Duration.ofSeconds(5));

		PendingTurn waiting = awaitReleased();
		assertThat(waiting.pendingCalls()).extracting(PendingTurn.PendingToolCall::id).containsExactly("c1");
		assertThatExceptionOfType(ResumeException.class)
			.isThrownBy(() -> agent.resume(approveBoth).block(Duration.ofSeconds(5)))
			.withMessage("Decisions must name exactly the pending tool calls [c1]; unknown: [c2]; "
					+ "already decided, with results kept: [c2]");
		this.blockTool.set(false);
		AgentResult resumed = agent.resume(APPROVE).block(Duration.ofSeconds(5));
		assertThat(resumed.output()).isEqualTo("Deleted both.");
		assertThat(resumed.toolExecutions()).extracting(ToolExecution::arguments)
			.containsExactly("{\"path\":\"a\"}", "{\"path\":\"b2\"}");
		assertThat(this.toolRuns).as("c1 twice, cancelled while it ran; c2 once").hasValue(3);
	}

	@Test
	void resumingTheProgressedTurnWithTheOldDecisionsIsRefused() {
		Agent agent = failingAfterTheToolRan(new AtomicBoolean(true));

		assertThatExceptionOfType(ResumeException.class)
			.isThrownBy(() -> agent.resume(APPROVE).block(Duration.ofSeconds(5)))
			.withMessage("Session 's1' has no tool calls waiting for a decision: the calls decided before ran and "
					+ "their results are kept; resume the turn with no decisions to continue (got decisions for [c1])");
		assertThat(this.toolRuns).hasValue(1);
	}

	@Test
	void newMessageWhileTheProgressedTurnWaitsIsRefused() {
		Agent agent = failingAfterTheToolRan(new AtomicBoolean(true));

		assertThatExceptionOfType(ResumeException.class).isThrownBy(() -> agent.call("s1", "hi"))
			.withMessage("Session 's1' has an unfinished turn whose decided tool calls ran; resume it with no "
					+ "decisions (unless it is being resumed) before sending a new message");
		assertThat(this.store.load("s1").block().messages()).isEmpty();
		assertThat(this.toolRuns).hasValue(1);
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
		assertThat(this.store.load("s1").block().messages()).extracting(Message::text)
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

	/**
	 * An agent whose session s1 waited for a decision on delete_file (c1), was approved,
	 * ran the tool, then failed on the next model call while {@code modelDown}.
	 */
	private Agent failingAfterTheToolRan(AtomicBoolean modelDown) {
		Agent agent = pausedAgent(ScriptedChatModel.answering((request) -> {
			if (request.messages().size() < 3) {
				return toolCalls(new ToolCall("c1", "delete_file", "{}"));
			}
			if (modelDown.get()) {
				throw new ModelRequestException("scripted", 400, "bad request");
			}
			return text("Deleted.");
		}));
		this.blockTool.set(false);
		assertThatExceptionOfType(ModelRequestException.class)
			.isThrownBy(() -> agent.resume(APPROVE).block(Duration.ofSeconds(5)));
		assertThat(this.toolRuns).hasValue(1);
		return agent;
	}

	/** A model that asks for delete_file (c1), then, while {@code hangs}, never answers. */
	private static ChatModel hangingAfterTools(AtomicBoolean hangs) {
		ScriptedChatModel scripted = ScriptedChatModel.answering((request) -> (request.messages().size() < 3)
				? toolCalls(new ToolCall("c1", "delete_file", "{}")) : text("Deleted."));
		return new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return hangs(request) ? Mono.never() : scripted.call(request);
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				return hangs(request) ? Flux.never() : scripted.stream(request);
			}

			private boolean hangs(ChatRequest request) {
				return hangs.get() && request.messages().size() >= 3;
			}

		};
	}

	/** Wait until no resumption holds the paused turn of s1, and return it. */
	private PendingTurn awaitReleased() {
		awaitTrue(() -> {
			PendingTurn pending = this.store.loadPending("s1").block();
			if (pending != null && this.store.claimPending("s1", pending).block()) {
				this.store.releasePending("s1", pending).block();
				return true;
			}
			return false;
		});
		return this.store.loadPending("s1").block();
	}

	/** An agent whose session s1 waits for a decision on delete_file (c1). */
	private Agent pausedAgent(ChatModel model) {
		return pausedAgent(model, (arguments) -> true);
	}

	/** An agent whose session s1 waits for a decision on the calls of delete_file. */
	private Agent pausedAgent(ChatModel model, Predicate<String> blocks) {
		Agent agent = Agent.builder()
			.name("files")
			.model(model)
			.conversationStore(this.store)
			.tool(TestTools.tool("delete_file", (arguments, context) -> {
				this.toolRuns.incrementAndGet();
				if (this.blockTool.get() && blocks.test(arguments)) {
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

	private static boolean awaitUninterruptibly(CountDownLatch latch) {
		try {
			return latch.await(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
