package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.DelegatingConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for the per-turn deadline, {@link AgentBuilder#turnTimeout}.
 */
class TurnTimeoutTests {

	private static final Duration TURN_TIMEOUT = Duration.ofMillis(200);

	/** For agents that must finish: far from a loaded machine's slowest turn. */
	private static final Duration ROOMY = Duration.ofSeconds(30);

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	@Test
	void turnOfAModelThatNeverAnswersFailsAfterTheTurnTimeoutAndStoresNothing() {
		Agent agent = agent(new SilentModel()).build();

		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "hi")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOfSatisfying(TurnTimeoutException.class,
					(timeout) -> {
						assertThat(timeout.agentName()).isEqualTo("patient");
						assertThat(timeout.timeout()).isEqualTo(TURN_TIMEOUT);
						assertThat(timeout).hasMessage("Agent 'patient' did not finish the turn within its turn "
								+ "timeout of PT0.2S; nothing was stored");
					}))
			// generous: the point is that it ends at all
			.verify(Duration.ofSeconds(10));
		assertThat(this.store.load("s1").block().messages()).isEmpty();
	}

	@Test
	void streamedTurnPastItsTimeoutEndsWithAnErrorEvent() {
		Agent agent = agent(new SilentModel()).build();

		StepVerifier.create(agent.stream(AgentRequest.of("s1", "hi")))
			.expectNext(new AgentEvent.Failed("TurnTimeoutException",
					"Agent 'patient' did not finish the turn within its turn timeout of PT0.2S; nothing was stored"))
			.expectComplete()
			.verify(Duration.ofSeconds(10));
		assertThat(this.store.load("s1").block().messages()).isEmpty();
	}

	@Test
	void resumedTurnPastItsTimeoutWaitsWithTheResultsOfItsApprovedCalls() {
		Agent pausing = agent(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}"))))
			.turnTimeout(ROOMY)
			.tool(TestTools.tool("delete_file", (arguments, context) -> "deleted"))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")))
			.build();
		pausing.call("s1", "delete");
		AtomicInteger runs = new AtomicInteger();
		Agent silent = agent(new SilentModel())
			.tool(TestTools.tool("delete_file", (arguments, context) -> "deleted " + runs.incrementAndGet()))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")))
			.build();

		StepVerifier.create(silent.resume(ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve()))))
			.expectError(TurnTimeoutException.class)
			.verify(Duration.ofSeconds(10));

		PendingTurn waiting = this.store.loadPending("s1").block();
		assertThat(waiting.pendingCalls()).isEmpty();
		assertThat(waiting.messages()).extracting(Message::text).containsExactly("delete", "", "deleted 1");
		assertThat(this.store.load("s1").block().messages()).isEmpty();
		AgentResult resumed = agent(ScriptedChatModel.replaying(text("Deleted.")))
			.turnTimeout(ROOMY)
			.tool(TestTools.tool("delete_file", (arguments, context) -> "deleted " + runs.incrementAndGet()))
			.build()
			.resume(ResumeRequest.of("s1", Map.of()))
			.block(Duration.ofSeconds(5));
		assertThat(resumed.output()).isEqualTo("Deleted.");
		assertThat(runs).hasValue(1);
	}

	@Test
	void storingATurnThatFinishedInTimeIsNotCutShort() {
		Agent agent = Agent.builder()
			.name("patient")
			.model(ScriptedChatModel.replaying(text("Done.")))
			// a second to reach the store even on a loaded machine, then twice that to append
			.conversationStore(new SlowAppendStore(this.store, Duration.ofSeconds(2)))
			.turnTimeout(Duration.ofSeconds(1))
			.build();

		AgentResult result = agent.invoke(AgentRequest.of("s1", "hi")).block(Duration.ofSeconds(10));

		assertThat(result.output()).isEqualTo("Done.");
		assertThat(this.store.load("s1").block().messages()).extracting(Message::text).containsExactly("hi", "Done.");
	}

	@Test
	void aFinishedTurnLeavesNoDeadlineWatched() {
		Agent agent = Agent.builder()
			.name("quick")
			.model(ScriptedChatModel.answering((request) -> text("done")))
			.conversationStore(this.store)
			.turnTimeout(ROOMY)
			.build();
		int before = DeadlineTicker.watching();

		for (int i = 0; i < 100; i++) {
			assertThat(agent.call("s" + i, "hi").output()).isEqualTo("done");
		}

		// no deadline of a finished turn stays in the ticker's set (other tests' turns may be running)
		assertThat(DeadlineTicker.watching()).isLessThanOrEqualTo(before);
	}

	@Test
	void turnTimeoutDefaultsToFiveMinutesAndMustBePositive() {
		assertThat(AgentBuilder.DEFAULT_TURN_TIMEOUT).isEqualTo(Duration.ofMinutes(5));
		assertThatIllegalArgumentException().isThrownBy(() -> Agent.builder().turnTimeout(Duration.ZERO))
			.withMessage("'turnTimeout' must be positive, was PT0S");
	}

	private AgentBuilder agent(ChatModel model) {
		return Agent.builder().name("patient").model(model).conversationStore(this.store).turnTimeout(TURN_TIMEOUT);
	}

	/** A provider that accepts the request and never answers. */
	static final class SilentModel implements ChatModel {

		@Override
		public Mono<ChatResponse> call(ChatRequest request) {
			return Mono.never();
		}

		@Override
		public Flux<ChatChunk> stream(ChatRequest request) {
			return Flux.never();
		}

	}

	/** Delegates to a store, taking longer than the turn timeout to append. */
	static final class SlowAppendStore extends DelegatingConversationStore {

		private final Duration delay;

		SlowAppendStore(ConversationStore delegate, Duration delay) {
			super(delegate);
			this.delay = delay;
		}

		@Override
		public Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages) {
			return Mono.delay(this.delay).then(super.append(sessionId, expectedVersion, messages));
		}

	}

}
