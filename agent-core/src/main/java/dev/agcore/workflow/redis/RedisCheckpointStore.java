package dev.agcore.workflow.redis;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.redis.RedisErrors;
import dev.agcore.workflow.Checkpoint;
import dev.agcore.workflow.CheckpointFormatException;
import dev.agcore.workflow.CheckpointStore;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Keeps workflow checkpoints in Redis, shared by every instance of the application: one
 * hash per run, {@code {prefix}checkpoint:{runId}} (the braces are a hash tag), with the
 * fields {@code format}, {@code version}, {@code interrupts}, {@code resumes},
 * {@code task:<callId>} and {@code resume:<index>} (JSON). Every write is one Lua script,
 * atomic and idempotent, and renews the hash's expiry ({@code PEXPIRE}) to the
 * time-to-live. A Redis that cannot be reached fails with a
 * {@link dev.agcore.memory.MemoryUnavailableException}.
 *
 * @since 0.1.0
 */
public final class RedisCheckpointStore implements CheckpointStore {

	// ARGV[1] format this writes, ARGV[2] time-to-live in milliseconds (0: none); -1: a newer format
	private static final String PRELUDE = """
			local format = redis.call('HGET', KEYS[1], 'format')
			if format and tonumber(format) > tonumber(ARGV[1]) then
				return -1
			end
			local function written()
				redis.call('HSETNX', KEYS[1], 'format', ARGV[1])
				redis.call('HSETNX', KEYS[1], 'interrupts', 0)
				redis.call('HSETNX', KEYS[1], 'resumes', 0)
				redis.call('HINCRBY', KEYS[1], 'version', 1)
				if tonumber(ARGV[2]) > 0 then
					redis.call('PEXPIRE', KEYS[1], ARGV[2])
				end
				return 1
			end
			""";

	/** ARGV: format, ttl, call id, result JSON; 1 written, 0 kept already. */
	private static final RedisScript<Long> SAVE_TASK = RedisScript.of(PRELUDE + """
			if redis.call('HSETNX', KEYS[1], 'task:' .. ARGV[3], ARGV[4]) == 0 then
				return 0
			end
			return written()
			""", Long.class);

	/** ARGV: format, ttl, index, answer JSON; 1 written, 0 kept already, -2 an earlier one is missing. */
	private static final RedisScript<Long> SAVE_RESUME = RedisScript.of(PRELUDE + """
			local kept = tonumber(redis.call('HGET', KEYS[1], 'resumes') or '0')
			local index = tonumber(ARGV[3])
			if index < kept then
				return 0
			end
			if index > kept then
				return -2
			end
			redis.call('HSET', KEYS[1], 'resume:' .. ARGV[3], ARGV[4])
			redis.call('HSET', KEYS[1], 'resumes', kept + 1)
			return written()
			""", Long.class);

	/** ARGV: format, ttl, index; 1 written, 0 reached already. */
	private static final RedisScript<Long> SAVE_INTERRUPT = RedisScript.of(PRELUDE + """
			local reached = tonumber(redis.call('HGET', KEYS[1], 'interrupts') or '0')
			local index = tonumber(ARGV[3])
			if reached > index then
				return 0
			end
			redis.call('HSET', KEYS[1], 'interrupts', index + 1)
			return written()
			""", Long.class);

	private final ReactiveStringRedisTemplate redis;

	private final String prefix;

	private final Duration ttl;

	/**
	 * Create a store.
	 * @param redis the template over the application's Redis connection
	 * @param keyPrefix the prefix of every key the store writes, such as {@code agent:}
	 * @param ttl how long a checkpoint is kept after its last write; {@link Duration#ZERO}
	 * for no limit
	 */
	public RedisCheckpointStore(ReactiveStringRedisTemplate redis, String keyPrefix, Duration ttl) {
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("'ttl' must not be negative (was " + ttl + ")");
		}
		this.redis = Objects.requireNonNull(redis, "'redis' must not be null");
		this.prefix = Objects.requireNonNull(keyPrefix, "'keyPrefix' must not be null");
		this.ttl = ttl;
	}

	@Override
	public Mono<Checkpoint> load(String runId) {
		return this.redis.<String, String>opsForHash()
			.entries(key(runId))
			.collectMap(Map.Entry::getKey, Map.Entry::getValue)
			.onErrorMap(RedisCheckpointStore::translate)
			.flatMap((fields) -> fields.isEmpty() ? Mono.empty() : Mono.just(checkpoint(runId, fields)));
	}

	@Override
	public Mono<Boolean> saveTask(String runId, String callId, JsonNode result) {
		return run(SAVE_TASK, runId, callId, AgentJson.mapper().writeValueAsString(result)).map((n) -> n == 1L);
	}

	@Override
	public Mono<Boolean> saveResume(String runId, int index, JsonNode value) {
		return run(SAVE_RESUME, runId, Integer.toString(index), AgentJson.mapper().writeValueAsString(value))
			.handle((n, sink) -> {
				if (n == -2L) {
					sink.error(new IllegalArgumentException("Cannot keep the answer to interrupt " + index + " of run '"
							+ runId + "': earlier answers are missing; answers are kept in order"));
					return;
				}
				sink.next(n == 1L);
			});
	}

	@Override
	public Mono<Void> saveInterrupt(String runId, int index) {
		return run(SAVE_INTERRUPT, runId, Integer.toString(index)).then();
	}

	@Override
	public Mono<Boolean> delete(String runId) {
		return this.redis.delete(key(runId)).map((n) -> n > 0).onErrorMap(RedisCheckpointStore::translate);
	}

	private Mono<Long> run(RedisScript<Long> script, String runId, String... args) {
		List<String> argv = new java.util.ArrayList<>(List.of(Integer.toString(Checkpoint.FORMAT_VERSION),
				Long.toString(this.ttl.toMillis())));
		argv.addAll(List.of(args));
		return this.redis.execute(script, List.of(key(runId)), argv)
			.next()
			.onErrorMap(RedisCheckpointStore::translate)
			.handle((n, sink) -> {
				if (n == -1L) {
					sink.error(new CheckpointFormatException(runId, Checkpoint.FORMAT_VERSION + 1));
					return;
				}
				sink.next(n);
			});
	}

	private static Checkpoint checkpoint(String runId, Map<String, String> fields) {
		int format = Integer.parseInt(fields.getOrDefault("format", "1"));
		if (format > Checkpoint.FORMAT_VERSION) {
			throw new CheckpointFormatException(runId, format);
		}
		Map<String, JsonNode> tasks = new LinkedHashMap<>();
		TreeMap<Integer, JsonNode> answers = new TreeMap<>();
		fields.forEach((field, value) -> {
			if (field.startsWith("task:")) {
				tasks.put(field.substring(5), AgentJson.mapper().readTree(value));
			}
			else if (field.startsWith("resume:")) {
				answers.put(Integer.parseInt(field.substring(7)), AgentJson.mapper().readTree(value));
			}
		});
		return new Checkpoint(runId, format, Long.parseLong(fields.getOrDefault("version", "0")), tasks,
				List.copyOf(answers.values()), Integer.parseInt(fields.getOrDefault("interrupts", "0")));
	}

	private String key(String runId) {
		return this.prefix + "checkpoint:{" + runId + "}";
	}

	private static Throwable translate(Throwable ex) {
		return RedisErrors.translate("Redis checkpoint store", ex);
	}

}
