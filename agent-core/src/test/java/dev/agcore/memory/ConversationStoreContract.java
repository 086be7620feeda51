package dev.agcore.memory;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What every {@link ConversationStore} must do, run against each implementation (in
 * memory, H2, PostgreSQL, Redis): order, every message kind, versions, the pending-turn
 * claim, time-to-live, capacity, concurrency from two threads and from two instances on
 * one backend, and a backend that goes down and comes back.
 */
public abstract class ConversationStoreContract {

	protected static final Duration TIMEOUT = Duration.ofSeconds(20);

	/** Bounds a store under test is created with. */
	public record Settings(int maxMessagesPerSession, Duration sessionTtl) {

		public static final Settings DEFAULT = new Settings(1000, Duration.ZERO);

	}

	/**
	 * Create a store on the backend under test.
	 * @param settings its bounds
	 * @return the store
	 */
	protected abstract ConversationStore createStore(Settings settings);

	/**
	 * Return a second store on the same backend, as another application instance has.
	 * @param first the first store
	 * @return a store sharing its data
	 */
	protected ConversationStore secondInstance(ConversationStore first, Settings settings) {
		return createStore(settings);
	}

	/**
	 * Run whatever removes expired sessions now, for stores that purge on a schedule.
	 * @param store the store
	 */
	protected void purgeExpired(ConversationStore store) {
	}

	/**
	 * Return a way to take the backend down, or null when the store has no backend to lose.
	 * @return the outage, or null
	 */
	protected @Nullable StoreOutage<ConversationStore> outage() {
		return null;
	}

	private static String session() {
		return "s-" + UUID.randomUUID();
	}

	@Test
	void anUnknownSessionIsEmptyAtVersionZero() {
		ConversationStore store = createStore(Settings.DEFAULT);
		assertThat(store.load(session()).block(TIMEOUT)).isEqualTo(Conversation.EMPTY);
		assertThat(store.loadPending(session()).blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void keepsEveryMessageKindInExactOrder() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		ToolCall first = new ToolCall("call_1", "lookup", "{\"q\":\"größe \\\"x\\\"\"}");
		ToolCall second = new ToolCall("call_2", "delete", "{}");
		List<Message> turn = List.of(new SystemMessage("be brief"), new UserMessage("look up 你好 ✓\nline two"),
				new AssistantMessage("thinking…", List.of(first, second)), ToolResultMessage.success(first, "one"),
				ToolResultMessage.failure(second, "Error: denied"), AssistantMessage.of(""), AssistantMessage.of("done"));

		store.append(session, 0, turn).block(TIMEOUT);
		store.append(session, 1, List.of(new UserMessage("again"), AssistantMessage.of("ok"))).block(TIMEOUT);

		Conversation loaded = store.load(session).block(TIMEOUT);
		List<Message> expected = new ArrayList<>(turn);
		expected.add(new UserMessage("again"));
		expected.add(AssistantMessage.of("ok"));
		assertThat(loaded.messages()).containsExactlyElementsOf(expected);
		assertThat(loaded.version()).isEqualTo(2);
	}

	@Test
	void keepsReasoningRefusalMediaNamesDeveloperInstructionsAndAgents() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		List<Message> turn = List.of(SystemMessage.developer("use metric units"),
				new UserMessage("what is on it?",
						List.of(Media.url(URI.create("https://example.com/a.png"), "image/png"),
								new Media("application/pdf", null, new byte[] { 0, 1, (byte) 0xff }, "spec.pdf")),
						"ana"),
				new AssistantMessage("a cat", List.of(),
						List.of(new Reasoning("looks furry", "sig-1", null), new Reasoning("", null, "ZW5j")), null),
				new AssistantMessage("", List.of(), List.of(), "I can't help with that"),
				new AssistantMessage("", List.of(new ToolCall("c1", "t", "{}")), List.of(), null, "build"));

		store.append(session, 0, turn).block(TIMEOUT);

		assertThat(store.load(session).block(TIMEOUT).messages()).containsExactlyElementsOf(turn);
	}

	@Test
	void loadsTheNewestMessagesWithoutAnOrphanedToolResult() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		ToolCall call = new ToolCall("call_1", "lookup", "{}");
		List<Message> turn = List.of(new UserMessage("look up"), AssistantMessage.of(List.of(call)),
				ToolResultMessage.success(call, "one"), AssistantMessage.of("found"));
		store.append(session, 0, turn).block(TIMEOUT);

		// the newest two would start with the result of a call left out
		assertThat(store.loadRecent(session, 2).block(TIMEOUT))
			.isEqualTo(new Conversation(List.of(AssistantMessage.of("found")), 1));
		assertThat(store.loadRecent(session, 3).block(TIMEOUT)).isEqualTo(new Conversation(turn.subList(1, 4), 1));
		assertThat(store.loadRecent(session, 50).block(TIMEOUT)).isEqualTo(new Conversation(turn, 1));
		assertThat(store.loadRecent(session(), 50).block(TIMEOUT)).isEqualTo(Conversation.EMPTY);
	}

	@Test
	void anAppendFromAStaleVersionFailsAndStoresNothing() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		store.append(session, 0, List.of(new UserMessage("first"))).block(TIMEOUT);

		assertThatExceptionOfType(ConversationConflictException.class)
			.isThrownBy(() -> store.append(session, 0, List.of(new UserMessage("late"))).block(TIMEOUT))
			.withMessageContaining(session);
		assertThatExceptionOfType(ConversationConflictException.class)
			.isThrownBy(() -> store.append(session, 5, List.of(new UserMessage("ahead"))).block(TIMEOUT));
		assertThat(store.load(session).block(TIMEOUT)).isEqualTo(new Conversation(List.of(new UserMessage("first")), 1));
	}

	@Test
	void replaceRewritesTheWholeConversationAtOnce() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		store.append(session, 0, List.of(new UserMessage("1"), AssistantMessage.of("2"))).block(TIMEOUT);
		store.replace(session, 1, List.of(new UserMessage("summary"))).block(TIMEOUT);

		assertThat(store.load(session).block(TIMEOUT)).isEqualTo(new Conversation(List.of(new UserMessage("summary")), 2));
		assertThatExceptionOfType(ConversationConflictException.class)
			.isThrownBy(() -> store.replace(session, 1, List.of()).block(TIMEOUT));
		assertThat(store.load(session).block(TIMEOUT).messages()).containsExactly(new UserMessage("summary"));
	}

	@Test
	void aPausedTurnIsKeptUntilCompleted() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		store.append(session, 0, List.of(new UserMessage("hi"), AssistantMessage.of("hello"))).block(TIMEOUT);
		PendingTurn paused = pausedTurn();

		store.savePending(session, 1, paused).block(TIMEOUT);
		assertThat(store.loadPending(session).block(TIMEOUT)).isEqualTo(paused);
		assertThat(store.load(session).block(TIMEOUT).version()).isEqualTo(2);
		// a turn that read the conversation before the pause cannot be stored over it
		assertThatExceptionOfType(ConversationConflictException.class)
			.isThrownBy(() -> store.append(session, 1, List.of(new UserMessage("overlap"))).block(TIMEOUT));

		assertThat(store.claimPending(session, paused).block(TIMEOUT)).isTrue();
		store.completePending(session, 2, completedTurn()).block(TIMEOUT);

		assertThat(store.loadPending(session).blockOptional(TIMEOUT)).isEmpty();
		Conversation loaded = store.load(session).block(TIMEOUT);
		assertThat(loaded.messages()).hasSize(2 + completedTurn().size());
		assertThat(loaded.messages().subList(2, loaded.messages().size())).containsExactlyElementsOf(completedTurn());
		assertThat(loaded.version()).isEqualTo(3);
	}

	@Test
	void aPausedTurnIsClaimedOnceUntilReleased() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		PendingTurn paused = pausedTurn();
		store.savePending(session, 0, paused).block(TIMEOUT);

		assertThat(store.claimPending(session, paused).block(TIMEOUT)).isTrue();
		assertThat(store.claimPending(session, paused).block(TIMEOUT)).isFalse();
		// still there while resumed, so a new message is refused
		assertThat(store.loadPending(session).block(TIMEOUT)).isEqualTo(paused);

		store.releasePending(session, paused).block(TIMEOUT);
		assertThat(store.claimPending(session, paused).block(TIMEOUT)).isTrue();

		PendingTurn progressed = progressedTurn();
		assertThat(store.progressPending(session, paused, progressed).block(TIMEOUT)).isTrue();
		assertThat(store.loadPending(session).block(TIMEOUT)).isEqualTo(progressed);
		// the claim carried over: nobody else can claim the progressed turn
		assertThat(store.claimPending(session, progressed).block(TIMEOUT)).isFalse();
		// a stale release names the old turn and changes nothing
		store.releasePending(session, paused).block(TIMEOUT);
		assertThat(store.claimPending(session, progressed).block(TIMEOUT)).isFalse();
		store.releasePending(session, progressed).block(TIMEOUT);
		assertThat(store.claimPending(session, progressed).block(TIMEOUT)).isTrue();
		// the claim of a turn that was replaced fails
		assertThat(store.claimPending(session, paused).block(TIMEOUT)).isFalse();
		assertThat(store.progressPending(session, paused, progressed).block(TIMEOUT)).isFalse();
	}

	@Test
	void savingAPausedTurnAgainReplacesItUnclaimed() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		PendingTurn paused = pausedTurn();
		store.savePending(session, 0, paused).block(TIMEOUT);
		assertThat(store.claimPending(session, paused).block(TIMEOUT)).isTrue();

		PendingTurn again = progressedTurn();
		store.savePending(session, 1, again).block(TIMEOUT);

		assertThat(store.loadPending(session).block(TIMEOUT)).isEqualTo(again);
		assertThat(store.claimPending(session, again).block(TIMEOUT)).isTrue();
	}

	@Test
	void ofManyConcurrentClaimsOnTwoInstancesExactlyOneWins() throws Exception {
		ConversationStore one = createStore(Settings.DEFAULT);
		ConversationStore two = secondInstance(one, Settings.DEFAULT);
		String session = session();
		PendingTurn paused = pausedTurn();
		one.savePending(session, 0, paused).block(TIMEOUT);

		int claims = 8;
		ExecutorService executor = Executors.newFixedThreadPool(claims);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Boolean>> results = new ArrayList<>();
			for (int i = 0; i < claims; i++) {
				ConversationStore store = (i % 2 == 0) ? one : two;
				results.add(executor.submit(() -> {
					start.await();
					return store.claimPending(session, paused).block(TIMEOUT);
				}));
			}
			start.countDown();
			int won = 0;
			for (Future<Boolean> result : results) {
				won += result.get(30, TimeUnit.SECONDS) ? 1 : 0;
			}
			assertThat(won).isEqualTo(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void concurrentTurnsOnTwoInstancesNeverInterleaveAndLoseNothing() throws Exception {
		ConversationStore one = createStore(Settings.DEFAULT);
		ConversationStore two = secondInstance(one, Settings.DEFAULT);
		String session = session();
		int writers = 4;
		int turnsEach = 10;
		ExecutorService executor = Executors.newFixedThreadPool(writers);
		List<Integer> conflicts = Collections.synchronizedList(new ArrayList<>());
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> done = new ArrayList<>();
			for (int w = 0; w < writers; w++) {
				ConversationStore store = (w % 2 == 0) ? one : two;
				int writer = w;
				done.add(executor.submit(() -> {
					start.await();
					for (int t = 0; t < turnsEach; t++) {
						List<Message> turn = List.of(new UserMessage("w" + writer + "-t" + t),
								AssistantMessage.of("answer w" + writer + "-t" + t));
						// a turn that loses reads the newer conversation and runs again
						while (true) {
							long version = store.load(session).block(TIMEOUT).version();
							try {
								store.append(session, version, turn).block(TIMEOUT);
								break;
							}
							catch (ConversationConflictException ex) {
								conflicts.add(writer);
							}
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : done) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		Conversation loaded = one.load(session).block(TIMEOUT);
		assertThat(loaded.messages()).hasSize(writers * turnsEach * 2);
		assertThat(loaded.version()).isEqualTo(writers * turnsEach);
		for (int i = 0; i < loaded.messages().size(); i += 2) {
			String question = loaded.messages().get(i).text();
			assertThat(loaded.messages().get(i + 1).text()).isEqualTo("answer " + question);
		}
	}

	@Test
	void clearForgetsTheConversationAndThePausedTurn() {
		ConversationStore store = createStore(Settings.DEFAULT);
		String session = session();
		String other = session();
		store.append(session, 0, List.of(new UserMessage("hi"))).block(TIMEOUT);
		store.savePending(session, 1, pausedTurn()).block(TIMEOUT);
		store.append(other, 0, List.of(new UserMessage("other"))).block(TIMEOUT);

		store.clear(session).block(TIMEOUT);

		assertThat(store.load(session).block(TIMEOUT)).isEqualTo(Conversation.EMPTY);
		assertThat(store.loadPending(session).blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.load(other).block(TIMEOUT).messages()).containsExactly(new UserMessage("other"));
		store.append(session, 0, List.of(new UserMessage("again"))).block(TIMEOUT);
		assertThat(store.load(session).block(TIMEOUT).messages()).containsExactly(new UserMessage("again"));
	}

	@Test
	void keepsAtMostTheNewestMessagesNeverAToolResultWithoutItsCall() {
		ToolCall first = new ToolCall("call_1", "lookup", "{}");
		ToolCall second = new ToolCall("call_2", "lookup", "{}");
		List<Message> turn = List.of(new UserMessage("look up"), AssistantMessage.of(List.of(first, second)),
				ToolResultMessage.success(first, "one"), ToolResultMessage.success(second, "two"),
				AssistantMessage.of("found"));

		ConversationStore roomy = createStore(new Settings(4, Duration.ZERO));
		String session = session();
		roomy.append(session, 0, turn).block(TIMEOUT);
		assertThat(roomy.load(session).block(TIMEOUT).messages()).containsExactlyElementsOf(turn.subList(1, 5));

		ConversationStore tight = createStore(new Settings(3, Duration.ZERO));
		String other = session();
		tight.append(other, 0, turn).block(TIMEOUT);
		assertThat(tight.load(other).block(TIMEOUT).messages()).containsExactly(AssistantMessage.of("found"));
		tight.append(other, 1, List.of(new UserMessage("more"), AssistantMessage.of("ok"))).block(TIMEOUT);
		assertThat(tight.load(other).block(TIMEOUT).messages()).containsExactly(AssistantMessage.of("found"),
				new UserMessage("more"), AssistantMessage.of("ok"));
	}

	@Test
	void aSessionUnusedForLongerThanItsTimeToLiveIsForgotten() throws InterruptedException {
		ConversationStore store = createStore(new Settings(1000, Duration.ofSeconds(1)));
		String idle = session();
		store.append(idle, 0, List.of(new UserMessage("hi"))).block(TIMEOUT);
		store.savePending(idle, 1, pausedTurn()).block(TIMEOUT);

		Thread.sleep(1500);
		String fresh = session();
		store.append(fresh, 0, List.of(new UserMessage("new"))).block(TIMEOUT);
		purgeExpired(store);

		assertThat(store.load(idle).block(TIMEOUT)).isEqualTo(Conversation.EMPTY);
		assertThat(store.loadPending(idle).blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.load(fresh).block(TIMEOUT).messages()).containsExactly(new UserMessage("new"));
	}

	@Test
	void aStoreThatIsDownFailsClearlyWritesNothingAndComesBack() {
		StoreOutage<ConversationStore> outage = outage();
		if (outage == null) {
			return;
		}
		ConversationStore store = outage.store();
		String session = session();
		store.append(session, 0, List.of(new UserMessage("before"))).block(TIMEOUT);

		outage.cut();
		try {
			assertThatExceptionOfType(MemoryUnavailableException.class)
				.isThrownBy(() -> store.append(session, 1, List.of(new UserMessage("during"))).block(TIMEOUT));
			assertThatExceptionOfType(MemoryUnavailableException.class)
				.isThrownBy(() -> store.load(session).block(TIMEOUT));
		}
		finally {
			outage.restore();
		}

		Conversation loaded = store.load(session).block(TIMEOUT);
		assertThat(loaded).isEqualTo(new Conversation(List.of(new UserMessage("before")), 1));
		store.append(session, 1, List.of(new UserMessage("after"))).block(TIMEOUT);
		assertThat(store.load(session).block(TIMEOUT).messages()).containsExactly(new UserMessage("before"),
				new UserMessage("after"));
	}

	protected static PendingTurn pausedTurn() {
		ToolCall call = new ToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}");
		return new PendingTurn("assistant", List.of(new UserMessage("delete it"), AssistantMessage.of(List.of(call))),
				List.of(new PendingTurn.PendingToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}", "needs approval")),
				1, 10, 5);
	}

	protected static PendingTurn progressedTurn() {
		ToolCall call = new ToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}");
		return new PendingTurn("assistant", List.of(new UserMessage("delete it"), AssistantMessage.of(List.of(call)),
				ToolResultMessage.success(call, "deleted")), List.of(), 1, 10, 5);
	}

	private static List<Message> completedTurn() {
		ToolCall call = new ToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}");
		return List.of(new UserMessage("delete it"), AssistantMessage.of(List.of(call)),
				ToolResultMessage.success(call, "deleted"), AssistantMessage.of("Deleted."));
	}

}
