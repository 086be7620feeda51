package dev.agcore.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import dev.agcore.json.AgentJson;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link InMemoryBytes}: what the in-memory stores count, and which sessions
 * they evict, least recently used first, with everything that belongs to them.
 */
class InMemoryBytesTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final int KB10 = 5_000;

	@Test
	void defaultsToATenthOfTheHeap() {
		assertThat(InMemoryBytes.defaultMaxBytes()).isEqualTo(Runtime.getRuntime().maxMemory() / 100 * 10);
		assertThat(new InMemoryConversationStore().bytes().maxBytes()).isEqualTo(InMemoryBytes.defaultMaxBytes());
	}

	@Test
	void rejectsACapTooSmallForATurn() {
		assertThatIllegalArgumentException().isThrownBy(() -> InMemoryBytes.of(1024))
			.withMessage("'maxBytes' must be at least 65536 (was 1024)");
	}

	@Test
	void countsTwoBytesACharacterPlusOverheadsAndFreesThemAgain() {
		InMemoryBytes bytes = InMemoryBytes.of(1 << 20);
		InMemoryConversationStore conversations = conversations(bytes, 100);
		append(conversations, "s1", 0, new UserMessage("x".repeat(1_000)));
		long oneMessage = InMemoryBytes.SESSION_OVERHEAD + InMemoryBytes.MESSAGE_OVERHEAD + 2_000;
		assertThat(bytes.sessionBytes("s1")).isEqualTo(oneMessage);
		append(conversations, "s1", 1, new AssistantMessage("y".repeat(500), List.of(), null, null));
		assertThat(bytes.sessionBytes("s1")).isEqualTo(oneMessage + InMemoryBytes.MESSAGE_OVERHEAD + 1_000);
		assertThat(bytes.bytes()).isEqualTo(bytes.sessionBytes("s1"));

		conversations.clear("s1").block(TIMEOUT);
		assertThat(bytes.sessionBytes("s1")).isZero();
		assertThat(bytes.bytes()).isZero();
	}

	@Test
	void countsOnlyTheMessagesKeptWhenTheOldestAreDropped() {
		InMemoryBytes bytes = InMemoryBytes.of(1 << 20);
		InMemoryConversationStore conversations = conversations(bytes, 2);
		append(conversations, "s1", 0, new UserMessage("a".repeat(3_000)));
		append(conversations, "s1", 1, new UserMessage("b".repeat(10)));
		append(conversations, "s1", 2, new UserMessage("c".repeat(20)));
		assertThat(bytes.sessionBytes("s1"))
			.isEqualTo(InMemoryBytes.SESSION_OVERHEAD + 2 * InMemoryBytes.MESSAGE_OVERHEAD + 60);

		conversations.replace("s1", 3, List.of(new UserMessage("d".repeat(100)))).block(TIMEOUT);
		assertThat(bytes.sessionBytes("s1"))
			.isEqualTo(InMemoryBytes.SESSION_OVERHEAD + InMemoryBytes.MESSAGE_OVERHEAD + 200);
	}

	@Test
	void countsKeyValueItemsInTheirSessionAndForgetsEmptiedNamespaces() {
		InMemoryBytes bytes = InMemoryBytes.of(1 << 20);
		InMemoryKeyValueStore store = keyValues(bytes);
		JsonNode value = text("v".repeat(100));
		store.put(SessionMemory.NAMESPACE_PREFIX + "s1", "k", value).block(TIMEOUT);
		assertThat(bytes.sessionBytes("s1"))
			.isEqualTo(InMemoryBytes.NAMESPACE_OVERHEAD + InMemoryBytes.ITEM_OVERHEAD + 2 + 200);
		store.put("store:alice", "k", value).block(TIMEOUT);
		assertThat(bytes.bytes()).isEqualTo(2 * (InMemoryBytes.NAMESPACE_OVERHEAD + InMemoryBytes.ITEM_OVERHEAD + 2 + 200));

		store.delete(SessionMemory.NAMESPACE_PREFIX + "s1", "k").block(TIMEOUT);
		store.clear("store:alice").block(TIMEOUT);
		assertThat(bytes.bytes()).isZero();
	}

	@Test
	void evictsTheLeastRecentlyUsedSessionsDownToTheLowWaterMark() {
		InMemoryBytes bytes = InMemoryBytes.of(64 * 1024);
		InMemoryConversationStore conversations = conversations(bytes, 100);
		// six sessions of about 10 KB: under the cap
		for (int i = 1; i <= 6; i++) {
			append(conversations, "s" + i, 0, new UserMessage("x".repeat(KB10)));
		}
		assertThat(bytes.bytes()).isLessThanOrEqualTo(bytes.maxBytes());
		// s1 is read: now the most recently used but for the next one
		conversations.load("s1").block(TIMEOUT);

		append(conversations, "s7", 0, new UserMessage("x".repeat(KB10)));

		// over the cap: s2 and s3, the least recently used, go until under 15/16 of it
		assertThat(kept(conversations, "s1", "s2", "s3", "s4", "s5", "s6", "s7"))
			.containsExactly("s1", "s4", "s5", "s6", "s7");
		assertThat(bytes.bytes()).isLessThanOrEqualTo(bytes.lowWaterMark());
	}

	@Test
	void evictsASessionWaitingForApprovalOnlyAfterTheOthers() {
		InMemoryBytes bytes = InMemoryBytes.of(64 * 1024);
		InMemoryConversationStore conversations = conversations(bytes, 100);
		append(conversations, "waiting", 0, new UserMessage("x".repeat(KB10)));
		conversations.savePending("waiting", 1, new PendingTurn("agent", List.of(), List.of(), 1, 0, 0))
			.block(TIMEOUT);
		for (int i = 1; i <= 6; i++) {
			append(conversations, "s" + i, 0, new UserMessage("x".repeat(KB10)));
		}
		// s1 and s2 go to bring the estimate under 15/16 of the cap; the paused turn stays
		assertThat(kept(conversations, "waiting", "s1", "s2", "s3")).containsExactly("waiting", "s3");
	}

	@Test
	void evictsASessionWithItsMemoryListEntryAndOwnerButNotOtherNamespaces() {
		InMemoryBytes bytes = InMemoryBytes.of(64 * 1024);
		InMemoryConversationStore conversations = conversations(bytes, 100);
		InMemoryKeyValueStore store = keyValues(bytes);
		SessionOwners owners = SessionOwners.of(store);
		SessionDirectory directory = SessionDirectory.of(store);
		owners.claim("old", "alice").block(TIMEOUT);
		append(conversations, "old", 0, new UserMessage("x".repeat(KB10)));
		SessionMemory.of(store, "old").put("plan", "draft");
		store.put(LongTermStore.NAMESPACE_PREFIX + "session:old", "k", text("v")).block(TIMEOUT);
		directory.record("alice", "old", "agent").block(TIMEOUT);
		directory.record("bob", "old", "agent").block(TIMEOUT);
		directory.record("alice", "other", "agent").block(TIMEOUT);
		LongTermStore.of(store).put("alice", "colour", "blue");

		for (int i = 1; i <= 7; i++) {
			append(conversations, "s" + i, 0, new UserMessage("x".repeat(KB10)));
			// alice's long-term memory is used at every turn: never the least recently used
			LongTermStore.of(store).get("alice", "colour");
		}

		assertThat(load(conversations, "old")).isEmpty();
		assertThat(owners.owner("old").blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.keys(SessionMemory.NAMESPACE_PREFIX + "old").block(TIMEOUT)).isEmpty();
		assertThat(store.keys(LongTermStore.NAMESPACE_PREFIX + "session:old").block(TIMEOUT)).isEmpty();
		assertThat(directory.list("alice", 0, 10).block(TIMEOUT)).extracting(SessionInfo::sessionId)
			.doesNotContain("old");
		assertThat(directory.list("bob", 0, 10).block(TIMEOUT)).isEmpty();
		assertThat(LongTermStore.of(store).get("alice", "colour", String.class)).contains("blue");
		assertThat(conversations.load("s7").block(TIMEOUT).messages()).hasSize(1);
	}

	@Test
	void neverEvictsAnOwnerWithoutItsConversation() {
		InMemoryBytes bytes = InMemoryBytes.of(64 * 1024);
		InMemoryConversationStore conversations = conversations(bytes, 100);
		InMemoryKeyValueStore store = keyValues(bytes);
		SessionOwners owners = SessionOwners.of(store);
		for (int i = 1; i <= 20; i++) {
			owners.claim("s" + i, "user" + i).block(TIMEOUT);
			append(conversations, "s" + i, 0, new UserMessage("x".repeat(KB10)));
		}
		for (int i = 1; i <= 20; i++) {
			boolean conversation = !load(conversations, "s" + i).isEmpty();
			boolean owner = owners.owner("s" + i).blockOptional(TIMEOUT).isPresent();
			assertThat(owner).as("owner of s" + i).isEqualTo(conversation);
		}
		assertThat(load(conversations, "s1")).isEmpty();
		assertThat(load(conversations, "s20")).hasSize(1);
	}

	@Test
	void anIsolatedConversationIsEvictedWithItsSession() {
		InMemoryBytes bytes = InMemoryBytes.of(64 * 1024);
		InMemoryConversationStore conversations = conversations(bytes, 100);
		ConversationStore isolated = SessionMode.ISOLATED.conversations(conversations, "helper");
		isolated.append("old", 0, List.of(new UserMessage("i".repeat(KB10)))).block(TIMEOUT);
		append(conversations, "old", 0, new UserMessage("x".repeat(100)));
		assertThat(bytes.sessionBytes("old")).isGreaterThan(2L * KB10);

		for (int i = 1; i <= 6; i++) {
			append(conversations, "s" + i, 0, new UserMessage("x".repeat(KB10)));
		}
		assertThat(load(conversations, "old")).isEmpty();
		assertThat(isolated.load("old").block(TIMEOUT).messages()).isEmpty();
	}

	@Test
	void anExpiredConversationTakesItsOwnerAndMemoryWithIt() {
		MutableClock clock = new MutableClock();
		InMemoryBytes bytes = InMemoryBytes.of(1 << 20);
		InMemoryConversationStore conversations = new InMemoryConversationStore(100, 100, Duration.ofMinutes(30),
				clock, bytes);
		InMemoryKeyValueStore store = new InMemoryKeyValueStore(100, Duration.ZERO, clock, bytes);
		SessionOwners owners = SessionOwners.of(store);
		owners.claim("s1", "alice").block(TIMEOUT);
		append(conversations, "s1", 0, new UserMessage("hi"));
		SessionMemory.of(store, "s1").put("k", "v");

		clock.advance(Duration.ofMinutes(31));
		assertThat(load(conversations, "s1")).isEmpty();

		assertThat(owners.owner("s1").blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.keys(SessionMemory.NAMESPACE_PREFIX + "s1").block(TIMEOUT)).isEmpty();
		assertThat(bytes.bytes()).isZero();
	}

	@Test
	void aSessionBeyondTheCountBoundIsEvictedWhole() {
		InMemoryBytes bytes = InMemoryBytes.of(1 << 20);
		InMemoryConversationStore conversations = new InMemoryConversationStore(1, 100, Duration.ZERO,
				Clock.systemUTC(), bytes);
		InMemoryKeyValueStore store = keyValues(bytes);
		SessionOwners owners = SessionOwners.of(store);
		owners.claim("s1", "alice").block(TIMEOUT);
		append(conversations, "s1", 0, new UserMessage("hi"));
		append(conversations, "s2", 0, new UserMessage("hi"));

		assertThat(load(conversations, "s1")).isEmpty();
		assertThat(owners.owner("s1").blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void freeNamespacesAreEvictedLeastRecentlyUsedToo() {
		InMemoryBytes bytes = InMemoryBytes.of(64 * 1024);
		InMemoryKeyValueStore store = keyValues(bytes);
		// every user id a request names makes a namespace: they do not pile up
		for (int i = 0; i < 1_000; i++) {
			store.put(LongTermStore.NAMESPACE_PREFIX + "user" + i, "k", text("v".repeat(100))).block(TIMEOUT);
		}
		assertThat(bytes.bytes()).isLessThanOrEqualTo(bytes.maxBytes());
		assertThat(store.keys(LongTermStore.NAMESPACE_PREFIX + "user0").block(TIMEOUT)).isEmpty();
		assertThat(store.keys(LongTermStore.NAMESPACE_PREFIX + "user999").block(TIMEOUT)).containsExactly("k");
	}

	private static List<String> kept(InMemoryConversationStore conversations, String... sessions) {
		return java.util.Arrays.stream(sessions).filter((session) -> !load(conversations, session).isEmpty()).toList();
	}

	static InMemoryConversationStore conversations(InMemoryBytes bytes, int maxMessages) {
		return new InMemoryConversationStore(10_000, maxMessages, Duration.ZERO, Clock.systemUTC(), bytes);
	}

	static InMemoryKeyValueStore keyValues(InMemoryBytes bytes) {
		return new InMemoryKeyValueStore(100, Duration.ZERO, Clock.systemUTC(), bytes);
	}

	static void append(ConversationStore store, String session, long version, Message message) {
		store.append(session, version, List.of(message)).block(TIMEOUT);
	}

	static List<Message> load(ConversationStore store, String session) {
		return store.load(session).block(TIMEOUT).messages();
	}

	private static JsonNode text(String text) {
		return AgentJson.mapper().getNodeFactory().stringNode(text);
	}

	private static final class MutableClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public java.time.ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
