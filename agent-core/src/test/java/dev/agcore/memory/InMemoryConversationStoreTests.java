package dev.agcore.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link InMemoryConversationStore}.
 */
class InMemoryConversationStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	@Test
	void defaultsToTenThousandSessionsOfAThousandMessages() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		assertThat(store.maxSessions()).isEqualTo(10_000);
		assertThat(store.maxMessagesPerSession()).isEqualTo(1_000);
	}

	@Test
	void rejectsBoundsBelowOne() {
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryConversationStore(0, 10))
			.withMessage("'maxSessions' must be at least 1 (was 0)");
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryConversationStore(10, 0))
			.withMessage("'maxMessagesPerSession' must be at least 1 (was 0)");
	}

	@Test
	void evictsTheLeastRecentlyUsedSessionWhenFull() {
		InMemoryConversationStore store = new InMemoryConversationStore(2, 100);
		append(store, "a", new UserMessage("a1"));
		append(store, "b", new UserMessage("b1"));
		load(store, "a");
		append(store, "c", new UserMessage("c1"));

		assertThat(load(store, "b")).isEmpty();
		assertThat(load(store, "a")).containsExactly(new UserMessage("a1"));
		assertThat(load(store, "c")).containsExactly(new UserMessage("c1"));

		append(store, "c", new UserMessage("c2"));
		append(store, "d", new UserMessage("d1"));
		assertThat(load(store, "a")).isEmpty();
		assertThat(load(store, "c")).hasSize(2);
	}

	@Test
	void passesOverSessionsWaitingForApproval() {
		InMemoryConversationStore store = new InMemoryConversationStore(2, 100);
		PendingTurn turn = pendingTurn();
		append(store, "a", new UserMessage("a1"));
		store.savePending("a", version(store, "a"), turn).block(TIMEOUT);
		append(store, "b", new UserMessage("b1"));
		append(store, "c", new UserMessage("c1"));

		assertThat(load(store, "b")).isEmpty();
		assertThat(load(store, "a")).containsExactly(new UserMessage("a1"));
		assertThat(store.loadPending("a").block(TIMEOUT)).isEqualTo(turn);
	}

	@Test
	void evictsAPendingTurnWithItsSessionOnlyWhenEverySessionWaits() {
		InMemoryConversationStore store = new InMemoryConversationStore(2, 100);
		store.savePending("a", version(store, "a"), pendingTurn()).block(TIMEOUT);
		store.savePending("b", version(store, "b"), pendingTurn()).block(TIMEOUT);
		append(store, "c", new UserMessage("c1"));

		assertThat(store.loadPending("a").block(TIMEOUT)).isNull();
		assertThat(store.loadPending("b").block(TIMEOUT)).isNotNull();
		assertThat(load(store, "c")).containsExactly(new UserMessage("c1"));
	}

	@Test
	void dropsTheOldestMessagesBeyondTheBound() {
		InMemoryConversationStore store = new InMemoryConversationStore(10, 3);
		append(store, "s", new UserMessage("1"), AssistantMessage.of("2"));
		append(store, "s", new UserMessage("3"), AssistantMessage.of("4"));

		assertThat(load(store, "s")).containsExactly(AssistantMessage.of("2"), new UserMessage("3"),
				AssistantMessage.of("4"));
	}

	@Test
	void neverKeepsAToolResultWithoutItsCall() {
		ToolCall first = new ToolCall("call_1", "lookup", "{}");
		ToolCall second = new ToolCall("call_2", "lookup", "{}");
		List<Message> turn = List.of(new UserMessage("look up"), AssistantMessage.of(List.of(first, second)),
				ToolResultMessage.success(first, "one"), ToolResultMessage.success(second, "two"),
				AssistantMessage.of("found"));

		// a bound of 4 cuts just before the call: the call and both results are kept
		InMemoryConversationStore roomy = new InMemoryConversationStore(10, 4);
		roomy.append("s", 0, turn).block(TIMEOUT);
		assertThat(load(roomy, "s")).containsExactlyElementsOf(turn.subList(1, 5));

		// a bound of 3 would start at a result: the results go with their call
		InMemoryConversationStore tight = new InMemoryConversationStore(10, 3);
		tight.append("s", 0, turn).block(TIMEOUT);
		assertThat(load(tight, "s")).containsExactly(AssistantMessage.of("found"));
	}

	@Test
	void completingAPendingTurnKeepsTheBound() {
		InMemoryConversationStore store = new InMemoryConversationStore(10, 2);
		store.savePending("s", version(store, "s"), pendingTurn()).block(TIMEOUT);
		store.completePending("s", version(store, "s"), List.of(new UserMessage("1"), AssistantMessage.of("2"), new UserMessage("3")))
			.block(TIMEOUT);

		assertThat(load(store, "s")).containsExactly(AssistantMessage.of("2"), new UserMessage("3"));
		assertThat(store.loadPending("s").block(TIMEOUT)).isNull();
	}

	@Test
	void progressingAClaimedTurnReplacesItAndKeepsTheClaim() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		PendingTurn paused = pausedTurn();
		PendingTurn progressed = progressedTurn();
		store.savePending("s", version(store, "s"), paused).block(TIMEOUT);
		assertThat(store.claimPending("s", paused).block(TIMEOUT)).isTrue();

		assertThat(store.progressPending("s", paused, progressed).block(TIMEOUT)).isTrue();

		assertThat(store.loadPending("s").block(TIMEOUT)).isEqualTo(progressed);
		assertThat(store.claimPending("s", progressed).block(TIMEOUT)).as("still claimed").isFalse();
		store.releasePending("s", paused).block(TIMEOUT);
		assertThat(store.claimPending("s", progressed).block(TIMEOUT)).as("the old turn cannot release it")
			.isFalse();
		store.releasePending("s", progressed).block(TIMEOUT);
		assertThat(store.claimPending("s", progressed).block(TIMEOUT)).isTrue();
	}

	@Test
	void progressingRequiresTheTurnAsClaimedAndStillClaimed() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		PendingTurn paused = pausedTurn();
		PendingTurn progressed = progressedTurn();
		store.savePending("s", version(store, "s"), paused).block(TIMEOUT);

		assertThat(store.progressPending("s", paused, progressed).block(TIMEOUT)).as("not claimed").isFalse();
		assertThat(store.claimPending("s", paused).block(TIMEOUT)).isTrue();
		assertThat(store.progressPending("s", pendingTurn(), progressed).block(TIMEOUT)).as("another turn")
			.isFalse();
		assertThat(store.progressPending("other", paused, progressed).block(TIMEOUT)).as("another session")
			.isFalse();
		assertThat(store.loadPending("s").block(TIMEOUT)).isEqualTo(paused);
		store.completePending("s", version(store, "s"), List.of()).block(TIMEOUT);
		assertThat(store.progressPending("s", paused, progressed).block(TIMEOUT)).as("completed").isFalse();
		assertThat(store.loadPending("s").block(TIMEOUT)).isNull();
	}

	@Test
	void concurrentTurnsStayWithinTheBoundsAndWhole() throws Exception {
		InMemoryConversationStore store = new InMemoryConversationStore(20, 10);
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int thread = 0; thread < 4; thread++) {
				int offset = thread;
				futures.add(executor.submit(() -> {
					for (int i = 0; i < 500; i++) {
						String session = "s" + ((i * 7 + offset) % 50);
						append(store, session, new UserMessage("q" + i), AssistantMessage.of("a" + i));
						load(store, "s" + (i % 50));
					}
				}));
			}
			for (Future<?> future : futures) {
				future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		int kept = 0;
		for (int i = 0; i < 50; i++) {
			List<Message> messages = load(store, "s" + i);
			if (!messages.isEmpty()) {
				kept++;
				assertThat(messages).hasSizeLessThanOrEqualTo(10);
				// appended as whole turns of two, and cut at even positions
				assertThat(messages).hasSize(messages.size() / 2 * 2);
				assertThat(messages.get(0)).isInstanceOf(UserMessage.class);
			}
		}
		assertThat(kept).isEqualTo(20);
	}

	/** Waits for a decision on c1. */
	private static PendingTurn pausedTurn() {
		ToolCall call = new ToolCall("c1", "delete_file", "{}");
		return new PendingTurn("assistant", List.of(new UserMessage("delete it"), AssistantMessage.of(List.of(call))),
				List.of(new PendingTurn.PendingToolCall("c1", "delete_file", "{}", "deletes data")), 1, 10, 5);
	}

	/** The paused turn once c1 ran. */
	private static PendingTurn progressedTurn() {
		ToolCall call = new ToolCall("c1", "delete_file", "{}");
		return new PendingTurn("assistant", List.of(new UserMessage("delete it"), AssistantMessage.of(List.of(call)),
				ToolResultMessage.success(call, "deleted")), List.of(), 1, 10, 5);
	}

	private static PendingTurn pendingTurn() {
		return new PendingTurn("assistant", List.of(new UserMessage("delete it")), List.of(), 1, 0, 0);
	}

	private static void append(InMemoryConversationStore store, String sessionId, Message... messages) {
		// as the runtime does: a turn that overlapped another is appended after it
		while (true) {
			try {
				store.append(sessionId, version(store, sessionId), List.of(messages)).block(TIMEOUT);
				return;
			}
			catch (ConversationConflictException ex) {
				// another thread appended first
			}
		}
	}

	private static long version(InMemoryConversationStore store, String sessionId) {
		return store.load(sessionId).block(TIMEOUT).version();
	}

	private static List<Message> load(InMemoryConversationStore store, String sessionId) {
		Conversation conversation = store.load(sessionId).block(TIMEOUT);
		assertThat(conversation).isNotNull();
		return conversation.messages();
	}

}
