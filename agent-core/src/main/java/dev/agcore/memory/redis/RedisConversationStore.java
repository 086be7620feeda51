package dev.agcore.memory.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.memory.Conversation;
import dev.agcore.memory.ConversationConflictException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.codec.MemoryCodec;
import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.support.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Keeps conversations in Redis, shared by every instance of the application. Per session:
 * {@code {prefix}conv:{session}:messages}, a list of the messages as
 * {@link MemoryCodec} JSON, and {@code {prefix}conv:{session}:meta}, a hash with the
 * version, the paused turn and when it was claimed; the braces are a hash tag, so both
 * keys live in one cluster slot. Every change is one Lua script that checks the version,
 * changes, trims to the most messages kept (never leaving a tool result without its call)
 * and sets the session's expiry: one round trip whose cost does not depend on the length
 * of the conversation.
 * <p>
 * Sessions expire by Redis itself ({@code PEXPIRE}) after the session time-to-live since
 * their last change. With a most number of sessions, an index
 * ({@code {prefix}conv:sessions}, a sorted set by last use) is kept and the least
 * recently used sessions beyond it are deleted, passing over sessions waiting for
 * approval. A claim of a paused turn expires after the claim timeout, so a crashed
 * instance holds no session forever. Non-blocking; a Redis that cannot be reached fails
 * with a {@link dev.agcore.memory.MemoryUnavailableException}.
 */
public final class RedisConversationStore implements ConversationStore {

	private static final Logger logger = LoggerFactory.getLogger(RedisConversationStore.class);

	private static final String NAME = "Redis conversation store";

	/** Sessions beyond the capacity examined per change, to pass over paused ones. */
	private static final int EXTRA_CANDIDATES = 16;

	private final ReactiveStringRedisTemplate redis;

	private final String prefix;

	private final int maxSessions;

	private final int maxMessagesPerSession;

	private final Duration sessionTtl;

	private final Duration claimTimeout;

	private final MemoryCodec codec = MemoryCodec.get();

	/**
	 * Create a store with no session limit, 1,000 messages per session, no time-to-live
	 * and a claim timeout of 10 minutes, under the key prefix {@code agent:}.
	 * @param redis the template over the application's Redis connection
	 */
	public RedisConversationStore(ReactiveStringRedisTemplate redis) {
		this(redis, "agent:", 0, 1000, Duration.ZERO, Duration.ofMinutes(10));
	}

	/**
	 * Create a store.
	 * @param redis the template over the application's Redis connection
	 * @param keyPrefix the prefix of every key the store writes
	 * @param maxSessions the most sessions kept; 0 for no limit
	 * @param maxMessagesPerSession the most messages kept per session; at least 1
	 * @param sessionTtl how long a session is kept after its last change;
	 * {@link Duration#ZERO} for no limit
	 * @param claimTimeout how long a claim of a paused turn holds; {@link Duration#ZERO}
	 * for claims that never expire
	 */
	public RedisConversationStore(ReactiveStringRedisTemplate redis, String keyPrefix, int maxSessions,
			int maxMessagesPerSession, Duration sessionTtl, Duration claimTimeout) {
		if (maxSessions < 0) {
			throw new IllegalArgumentException("'maxSessions' must not be negative (was " + maxSessions + ")");
		}
		if (maxMessagesPerSession < 1) {
			throw new IllegalArgumentException(
					"'maxMessagesPerSession' must be at least 1 (was " + maxMessagesPerSession + ")");
		}
		if (sessionTtl.isNegative() || claimTimeout.isNegative()) {
			throw new IllegalArgumentException("'sessionTtl' and 'claimTimeout' must not be negative (were "
					+ sessionTtl + ", " + claimTimeout + ")");
		}
		this.redis = redis;
		this.prefix = keyPrefix;
		this.maxSessions = maxSessions;
		this.maxMessagesPerSession = maxMessagesPerSession;
		this.sessionTtl = sessionTtl;
		this.claimTimeout = claimTimeout;
	}

	@Override
	public Mono<Conversation> load(String sessionId) {
		return read(sessionId, 0);
	}

	@Override
	public Mono<Conversation> loadRecent(String sessionId, int maxMessages) {
		if (maxMessages < 1) {
			return Mono.error(new IllegalArgumentException("'maxMessages' must be at least 1, was " + maxMessages));
		}
		return read(sessionId, -maxMessages);
	}

	@Override
	public Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages) {
		return write(sessionId, expectedVersion, "append", "", messages);
	}

	@Override
	public Mono<Void> replace(String sessionId, long expectedVersion, List<Message> messages) {
		return write(sessionId, expectedVersion, "replace", "", messages);
	}

	@Override
	public Mono<Void> savePending(String sessionId, long expectedVersion, PendingTurn pending) {
		return Mono.defer(() -> write(sessionId, expectedVersion, "pending", this.codec.encode(pending), List.of()));
	}

	@Override
	public Mono<Void> completePending(String sessionId, long expectedVersion, List<Message> messages) {
		return write(sessionId, expectedVersion, "complete", "", messages);
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return this.redis.<String, String>opsForHash()
			.get(meta(sessionId), "pending")
			.map(this.codec::decodePendingTurn)
			.onErrorMap(this::translate);
	}

	@Override
	public Mono<Boolean> claimPending(String sessionId, PendingTurn expected) {
		return Mono.defer(() -> run(ConversationScripts.CLAIM, List.of(meta(sessionId)),
				List.of(this.codec.encode(expected), Long.toString(this.claimTimeout.toMillis()))))
			.map((claimed) -> claimed == 1L);
	}

	@Override
	public Mono<Boolean> progressPending(String sessionId, PendingTurn claimed, PendingTurn progressed) {
		return Mono.defer(() -> run(ConversationScripts.PROGRESS, List.of(meta(sessionId)),
				List.of(this.codec.encode(claimed), this.codec.encode(progressed))))
			.map((replaced) -> replaced == 1L);
	}

	@Override
	public Mono<Void> releasePending(String sessionId, PendingTurn claimed) {
		return Mono.defer(() -> run(ConversationScripts.RELEASE, List.of(meta(sessionId)),
				List.of(this.codec.encode(claimed))))
			.then();
	}

	@Override
	public Mono<Void> clear(String sessionId) {
		return Mono.when(this.redis.delete(messages(sessionId), meta(sessionId)),
				this.redis.opsForZSet().remove(index(), sessionId))
			.onErrorMap(this::translate);
	}

	private Mono<Conversation> read(String sessionId, int start) {
		return this.redis.execute(ConversationScripts.READ, List.of(messages(sessionId), meta(sessionId)),
				List.of(Integer.toString(start)))
			.collectList()
			.map((result) -> conversation(flatten(result)))
			.onErrorMap(this::translate);
	}

	private Conversation conversation(List<?> result) {
		long version = Long.parseLong(String.valueOf(result.get(0)));
		long stored = Long.parseLong(String.valueOf(result.get(1)));
		// a window that left out older messages must not start with a result whose call it left out
		boolean window = stored > result.size() - 2;
		List<Message> messages = new ArrayList<>(result.size() - 2);
		for (int i = 2; i < result.size(); i++) {
			String element = String.valueOf(result.get(i));
			if (window && messages.isEmpty() && element.startsWith(ConversationScripts.TOOL_RESULT)) {
				continue;
			}
			messages.add(this.codec.decodeMessage(element.substring(1)));
		}
		return new Conversation(messages, version);
	}

	private Mono<Void> write(String sessionId, long expectedVersion, String mode, String pending,
			List<Message> messages) {
		return Mono.defer(() -> {
			List<String> args = new ArrayList<>(messages.size() + 5);
			args.add(Long.toString(expectedVersion));
			args.add(mode);
			args.add(Integer.toString(this.maxMessagesPerSession));
			args.add(Long.toString(this.sessionTtl.toMillis()));
			args.add(pending);
			for (Message message : messages) {
				String kind = (message instanceof ToolResultMessage) ? ConversationScripts.TOOL_RESULT
						: ConversationScripts.OTHER;
				args.add(kind + this.codec.encode(message));
			}
			Mono<Void> written = run(ConversationScripts.WRITE, List.of(messages(sessionId), meta(sessionId)), args)
				.flatMap((version) -> (version < 0)
						? Mono.error(new ConversationConflictException(sessionId, expectedVersion)) : Mono.empty());
			// sent together with the write: the index costs no extra round trip; the turn is
			// stored even if evicting others fails, so that failure is only logged
			return (this.maxSessions > 0) ? Mono.when(written, touch(sessionId).onErrorResume((ex) -> {
				logger.warn("Could not evict sessions beyond agent.memory.max-sessions ({}) from Redis: {}",
						this.maxSessions, LogSafe.text(ex.toString()));
				return Mono.empty();
			})) : written;
		});
	}

	/** Marks the session used, then deletes the least recently used beyond the capacity. */
	private Mono<Void> touch(String sessionId) {
		return this.redis
			.execute(ConversationScripts.TOUCH, List.of(index()),
					List.of(sessionId, Integer.toString(this.maxSessions), Long.toString(this.sessionTtl.toMillis()),
							Integer.toString(EXTRA_CANDIDATES)))
			.collectList()
			.map(RedisConversationStore::flatten)
			.flatMap((candidates) -> {
				if (candidates.isEmpty()) {
					return Mono.empty();
				}
				long excess = Long.parseLong(String.valueOf(candidates.get(0)));
				return Flux.fromIterable(candidates.subList(1, candidates.size()))
					.map(String::valueOf)
					.filter((candidate) -> !candidate.equals(sessionId))
					.concatMap((candidate) -> evict(candidate).filter((evicted) -> evicted).map((evicted) -> candidate))
					.take(excess)
					.then();
			})
			.onErrorMap(this::translate);
	}

	private Mono<Boolean> evict(String sessionId) {
		return this.redis.execute(ConversationScripts.EVICT, List.of(messages(sessionId), meta(sessionId)), List.of())
			.next()
			.flatMap((evicted) -> (evicted == 1L)
					? this.redis.opsForZSet().remove(index(), sessionId).thenReturn(true) : Mono.just(false));
	}

	private Mono<Long> run(RedisScript<Long> script, List<String> keys, List<String> args) {
		return this.redis.execute(script, keys, args).next().onErrorMap(this::translate);
	}

	private Throwable translate(Throwable ex) {
		return RedisErrors.translate(NAME, ex);
	}

	// a script's array comes as its elements or as one list, depending on the driver
	private static List<?> flatten(List<?> result) {
		if (result.size() == 1 && result.get(0) instanceof List<?> list) {
			return list;
		}
		return result;
	}

	private String messages(String sessionId) {
		return this.prefix + "conv:{" + sessionId + "}:messages";
	}

	private String meta(String sessionId) {
		return this.prefix + "conv:{" + sessionId + "}:meta";
	}

	private String index() {
		return this.prefix + "conv:sessions";
	}

}
