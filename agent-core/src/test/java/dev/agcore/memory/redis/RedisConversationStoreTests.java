package dev.agcore.memory.redis;

import java.time.Duration;
import java.util.List;

import dev.agcore.memory.Conversation;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.TcpProxy;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the Redis conversation store does beyond the contract: its key layout, sessions
 * beyond the capacity, claims that expire, and errors.
 */
class RedisConversationStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static RedisTestSupport redis;

	private static ReactiveStringRedisTemplate template;

	@BeforeAll
	static void connect() {
		redis = new RedisTestSupport("agcore-test:conv:" + ProcessHandle.current().pid() + ":");
		template = redis.template();
	}

	@AfterAll
	static void disconnect() {
		if (redis != null) {
			redis.close();
		}
	}

	private static RedisConversationStore store(int maxSessions, Duration ttl, Duration claimTimeout) {
		return new RedisConversationStore(template, redis.keyPrefix(), maxSessions, 1000, ttl, claimTimeout);
	}

	@Test
	void keepsASessionInTwoKeysOfOneHashTagThatExpireTogether() {
		ConversationStore store = store(0, Duration.ofMinutes(5), Duration.ofMinutes(10));
		store.append("layout", 0, List.of(new UserMessage("hi"), AssistantMessage.of("hello"))).block(TIMEOUT);

		String messages = redis.keyPrefix() + "conv:{layout}:messages";
		String meta = redis.keyPrefix() + "conv:{layout}:meta";
		assertThat(template.opsForList().range(messages, 0, -1).collectList().block(TIMEOUT)).hasSize(2)
			.allSatisfy((element) -> assertThat(element).startsWith("M{"));
		assertThat(template.<String, String>opsForHash().get(meta, "version").block(TIMEOUT)).isEqualTo("1");
		assertThat(template.getExpire(messages).block(TIMEOUT)).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5));
		assertThat(template.getExpire(meta).block(TIMEOUT)).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5));
	}

	@Test
	void readsBackExactlyWhatWasStoredAndTrimsOnlyWindows() {
		ConversationStore store = store(0, Duration.ZERO, Duration.ofMinutes(10));
		ToolCall call = new ToolCall("call_1", "lookup", "{}");
		// a compaction may keep a tool result first; only a window that cut its call drops it
		List<Message> rewritten = List.of(ToolResultMessage.success(call, "one"), AssistantMessage.of("found"));
		store.replace("rewritten", 0, rewritten).block(TIMEOUT);

		assertThat(store.load("rewritten").block(TIMEOUT)).isEqualTo(new Conversation(rewritten, 1));
		assertThat(store.loadRecent("rewritten", 2).block(TIMEOUT)).isEqualTo(new Conversation(rewritten, 1));
		assertThat(store.loadRecent("rewritten", 1).block(TIMEOUT))
			.isEqualTo(new Conversation(List.of(AssistantMessage.of("found")), 1));
	}

	@Test
	void beyondTheMostSessionsTheLeastRecentlyUsedIsDeletedPassingOverPausedOnes() {
		String prefix = "cap-" + System.nanoTime() + "-";
		ConversationStore store = new RedisConversationStore(template, redis.keyPrefix() + prefix, 2, 1000,
				Duration.ZERO, Duration.ofMinutes(10));
		store.savePending("paused", 0, pausedTurn()).block(TIMEOUT);
		store.append("old", 0, List.of(new UserMessage("old"))).block(TIMEOUT);
		store.append("new", 0, List.of(new UserMessage("new"))).block(TIMEOUT);

		assertThat(store.loadPending("paused").blockOptional(TIMEOUT)).contains(pausedTurn());
		assertThat(store.load("old").block(TIMEOUT)).isEqualTo(Conversation.EMPTY);
		assertThat(store.load("new").block(TIMEOUT).messages()).containsExactly(new UserMessage("new"));
	}

	@Test
	void aClaimOlderThanTheClaimTimeoutExpires() throws InterruptedException {
		ConversationStore store = store(0, Duration.ZERO, Duration.ofMillis(300));
		PendingTurn paused = pausedTurn();
		store.savePending("claim", 0, paused).block(TIMEOUT);

		assertThat(store.claimPending("claim", paused).block(TIMEOUT)).isTrue();
		assertThat(store.claimPending("claim", paused).block(TIMEOUT)).isFalse();
		Thread.sleep(500);
		// the instance that claimed it crashed: another may resume it
		assertThat(store.claimPending("claim", paused).block(TIMEOUT)).isTrue();
	}

	@Test
	void anErrorAnsweredByRedisIsNotAnOutage() {
		ConversationStore store = store(0, Duration.ZERO, Duration.ofMinutes(10));
		template.opsForValue().set(redis.keyPrefix() + "conv:{wrong}:messages", "not a list").block(TIMEOUT);

		assertThatExceptionOfType(Exception.class)
			.isThrownBy(() -> store.append("wrong", 0, List.of(new UserMessage("hi"))).block(TIMEOUT))
			.isNotInstanceOf(MemoryUnavailableException.class)
			.isNotInstanceOf(MemoryException.class);
	}

	@Test
	void aRedisThatCannotBeReachedIsNamedWithoutCredentials() {
		try (TcpProxy proxy = TcpProxy.to(RedisTestSupport.HOST, RedisTestSupport.PORT)) {
			ConversationStore store = new RedisConversationStore(redis.template(proxy.port()), redis.keyPrefix(), 0,
					1000, Duration.ZERO, Duration.ofMinutes(10));
			proxy.cut();
			assertThatExceptionOfType(MemoryUnavailableException.class)
				.isThrownBy(() -> store.load("down").block(TIMEOUT))
				.withMessageStartingWith("The Redis conversation store could not reach Redis (");
		}
	}

	private static PendingTurn pausedTurn() {
		ToolCall call = new ToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}");
		return new PendingTurn("assistant", List.of(new UserMessage("delete it"), AssistantMessage.of(List.of(call))),
				List.of(new PendingTurn.PendingToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}",
						"needs approval")),
				1, 10, 5);
	}

}
