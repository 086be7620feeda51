package dev.agcore.run.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.redis.RedisErrors;
import dev.agcore.run.IdempotencyConflictException;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunIdempotency;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStateException;
import dev.agcore.run.RunStore;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link RunStore} in Redis, shared by every instance of the application, through
 * Spring Data Redis's reactive API (Lettuce). Under {@code <prefix>{runs}:}:
 * <ul>
 * <li>{@code run:<id>}: a hash per run; {@code run:<id>:events}: a stream per run, its
 * entry ids {@code 0-1}, {@code 0-2}... being the events' sequence numbers;</li>
 * <li>{@code queue}: a stream of run ids read by the consumer group {@code workers}, each
 * worker ({@code owner}) a consumer: a claimed run's entry stays in its worker's pending
 * list until the run ends, and moves to another worker's when that one takes the run
 * over; {@code delayed}: a sorted set of runs with a future {@code notBefore}, moved to
 * the queue when due by the claim script; {@code leases}: a sorted set of running runs by
 * the end of their lease;</li>
 * <li>{@code session:<session>}: a sorted set of a session's runs by creation;
 * {@code running:<session>} and {@code blocked:<session>}: the session's running runs and
 * the queued runs waiting for one of them to end ({@code maxPerSession});
 * {@code key:<scoped key>}: the run of an idempotency key scoped to its submitter, kind
 * and target ({@link RunIdempotency}; the run's hash keeps the request's
 * {@code fingerprint}); {@code finished}: finished
 * runs by time, for {@link #purge}.</li>
 * </ul>
 * Every change of a run is one Lua script ({@link RunScripts}) that checks its status and
 * owner, so a run is never claimed twice. The hash tag puts all keys in one cluster slot:
 * a Redis Cluster serves the store from one shard. Events and submissions are announced
 * on the pub/sub channels {@code <prefix>runs:appended} and {@code <prefix>runs:submitted}.
 * <p>
 * Times (creation, leases, {@code notBefore}, retention) come from the store's
 * {@link Clock} and are passed to the scripts, so all instances must run on synchronized
 * clocks (NTP); leases should be long compared to the clocks' drift. A Redis that cannot
 * be reached fails with a {@link dev.agcore.memory.MemoryUnavailableException}.
 *
 * @since 0.1.0
 */
public final class RedisRunStore implements RunStore {

	private static final String NAME = "Redis run store";

	private static final int PURGE_BATCH = 500;

	private final ReactiveStringRedisTemplate redis;

	private final Clock clock;

	private final String base;

	private final String channels;

	private final Flux<String> appended;

	private final Flux<String> submitted;

	/**
	 * Create a store under the key prefix {@code agent:} on the system clock.
	 * @param redis the template over the application's Redis connection
	 */
	public RedisRunStore(ReactiveStringRedisTemplate redis) {
		this(redis, "agent:", Clock.systemUTC());
	}

	/**
	 * Create a store.
	 * @param redis the template over the application's Redis connection
	 * @param keyPrefix the prefix of every key and channel the store uses
	 * @param clock the clock of timestamps, leases and {@code notBefore}
	 */
	public RedisRunStore(ReactiveStringRedisTemplate redis, String keyPrefix, Clock clock) {
		this.redis = Objects.requireNonNull(redis, "'redis' must not be null");
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
		this.base = keyPrefix + "{runs}:";
		this.channels = keyPrefix + "runs:";
		this.appended = listen(this.channels + "appended");
		this.submitted = listen(this.channels + "submitted");
	}

	@Override
	public Mono<Run> submit(RunRequest request, @Nullable RunIdempotency idempotency) {
		return Mono.defer(() -> {
			Instant now = this.clock.instant();
			String id = UUID.randomUUID().toString();
			List<String> args = new ArrayList<>(args(id, (idempotency != null) ? idempotency.key() : "",
					Long.toString(now.toEpochMilli()),
					(request.notBefore() != null) ? Long.toString(request.notBefore().toEpochMilli()) : "",
					request.sessionId(), (idempotency != null) ? idempotency.fingerprint() : ""));
			args.addAll(RunHash.requestFields(id, request, now));
			return json(RunScripts.SUBMIT, args).map((reply) -> {
				if (reply.path("conflict").asBoolean(false)) {
					throw new IdempotencyConflictException();
				}
				return RunHash.run(reply);
			});
		});
	}

	@Override
	public Mono<Run> find(String runId) {
		return this.redis.<String, String>opsForHash()
			.entries(runKey(runId))
			.collectMap(Map.Entry::getKey, Map.Entry::getValue)
			.onErrorMap(this::translate)
			.flatMap((hash) -> hash.isEmpty() ? Mono.empty() : Mono.just(RunHash.run(hash)));
	}

	@Override
	public Flux<Run> list(String sessionId, int offset, int limit) {
		if (offset < 0 || limit < 1) {
			return Flux.error(new IllegalArgumentException("'offset' must be >= 0 and 'limit' >= 1"));
		}
		return json(RunScripts.LIST, args(sessionId, Integer.toString(offset), Integer.toString(limit)))
			.flatMapIterable(RunHash::runs);
	}

	@Override
	public Flux<Run> claim(String owner, ClaimSettings settings) {
		return Mono.defer(() -> {
			Instant now = this.clock.instant();
			Instant until = now.plus(settings.lease());
			Run.RunError leaseExpired = Run.RunError.leaseExpired();
			return json(RunScripts.CLAIM,
					args(owner, Integer.toString(settings.max()), Integer.toString(settings.maxPerSession()),
							Integer.toString(settings.maxAttempts()), Long.toString(now.toEpochMilli()),
							now.toString(), Long.toString(until.toEpochMilli()), until.toString(),
							write(error(leaseExpired.code(), leaseExpired.message())), leaseExpired.message(), "{}"));
		}).flatMapIterable(RunHash::runs);
	}

	@Override
	public Mono<Lease> heartbeat(String runId, String owner, Duration lease) {
		return Mono.defer(() -> {
			Instant until = this.clock.instant().plus(lease);
			return number(RunScripts.HEARTBEAT,
					args(runId, owner, Long.toString(until.toEpochMilli()), until.toString()));
		}).map((answer) -> switch (answer.intValue()) {
			case 1 -> Lease.HELD;
			case 2 -> Lease.CANCEL_REQUESTED;
			default -> Lease.LOST;
		});
	}

	@Override
	public Mono<Boolean> finish(String runId, String owner, RunOutcome outcome) {
		return Mono.defer(() -> {
			Instant now = this.clock.instant();
			Run.RunError error = outcome.error();
			return number(RunScripts.FINISH, args(runId, owner, outcome.status().name(), now.toString(),
					Long.toString(now.toEpochMilli()), (outcome.result() != null) ? write(outcome.result()) : "",
					(error != null) ? error.code() : "", (error != null) ? error.message() : ""));
		}).map((written) -> written == 1L);
	}

	@Override
	public Mono<Boolean> release(String runId, String owner) {
		return number(RunScripts.RELEASE, args(runId, owner)).map((released) -> released == 1L);
	}

	@Override
	public Mono<Run> cancel(String runId) {
		return Mono.defer(() -> {
			Instant now = this.clock.instant();
			return json(RunScripts.CANCEL, args(runId, now.toString(), Long.toString(now.toEpochMilli()), "{}"));
		}).map((reply) -> {
			if (reply.has("missing")) {
				throw new RunNotFoundException(runId);
			}
			return RunHash.run(reply);
		});
	}

	@Override
	public Mono<Run> resume(String runId, JsonNode resume) {
		return Mono.defer(() -> json(RunScripts.RESUME, args(runId, write(resume)))).map((reply) -> {
			if (reply.has("missing")) {
				throw new RunNotFoundException(runId);
			}
			if (reply.has("status")) {
				throw new RunStateException("Run '" + runId + "' is "
						+ reply.get("status").asString().toLowerCase(Locale.ROOT)
						+ ", not interrupted: only an interrupted run can be resumed");
			}
			return RunHash.run(reply);
		});
	}

	@Override
	public Mono<RunEvent> append(String runId, String type, JsonNode data) {
		return Mono.defer(() -> {
			Instant now = this.clock.instant();
			return number(RunScripts.APPEND, args(runId, type, write(data), now.toString()))
				.map((sequence) -> {
					if (sequence == 0L) {
						throw new RunNotFoundException(runId);
					}
					return new RunEvent(runId, sequence, type, data, now);
				});
		});
	}

	@Override
	public Flux<RunEvent> read(String runId, long afterSequence, int limit) {
		if (limit < 1) {
			return Flux.error(new IllegalArgumentException("'limit' must be at least 1, was " + limit));
		}
		// entry ids are 0-<sequence>: the range starts right after the last one seen
		Range<String> range = Range.rightUnbounded(Range.Bound.inclusive("0-" + (Math.max(afterSequence, 0) + 1)));
		return this.redis.<String, String>opsForStream()
			.range(runKey(runId) + ":events", range, Limit.limit().count(limit))
			.map((record) -> event(runId, record))
			.onErrorMap(this::translate);
	}

	@Override
	public Flux<String> appended() {
		return this.appended;
	}

	@Override
	public Flux<String> submitted() {
		return this.submitted;
	}

	@Override
	public Mono<Long> purge(Duration retention) {
		return Mono.defer(() -> {
			String cutoff = Long.toString(this.clock.instant().minus(retention).toEpochMilli());
			Mono<Long> batch = number(RunScripts.PURGE, args(cutoff, Integer.toString(PURGE_BATCH)));
			// batches keep each script short; the next runs while the last one was full
			return batch.expand((removed) -> (removed == PURGE_BATCH) ? batch : Mono.empty())
				.reduce(0L, Long::sum);
		});
	}

	private RunEvent event(String runId, MapRecord<String, String, String> record) {
		Map<String, String> fields = record.getValue();
		return new RunEvent(runId, record.getId().getSequence(), fields.get("type"), RunHash.json(fields.get("data")),
				Instant.parse(fields.get("at")));
	}

	// hot: one subscription to the channel shared by all subscribers, renewed after an outage
	private Flux<String> listen(String channel) {
		return Flux.defer(() -> this.redis.listenToChannel(channel))
			.map((message) -> message.getMessage())
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100)).maxBackoff(Duration.ofSeconds(5)))
			.repeatWhen((completed) -> completed.delayElements(Duration.ofSeconds(1)))
			.share();
	}

	private Mono<JsonNode> json(RedisScript<String> script, List<String> args) {
		return this.redis.execute(script, List.of(this.base + "queue"), args)
			.next()
			.onErrorMap(this::translate)
			.map(RunHash::reply);
	}

	private Mono<Long> number(RedisScript<Long> script, List<String> args) {
		return this.redis.execute(script, List.of(this.base + "queue"), args).next().onErrorMap(this::translate);
	}

	private List<String> args(String... args) {
		List<String> all = new ArrayList<>(args.length + 2);
		all.add(this.base);
		all.add(this.channels);
		all.addAll(List.of(args));
		return all;
	}

	private String runKey(String runId) {
		return this.base + "run:" + runId;
	}

	private Throwable translate(Throwable ex) {
		return RedisErrors.translate(NAME, ex);
	}

	private static String write(JsonNode node) {
		return AgentJson.mapper().writeValueAsString(node);
	}

	private static ObjectNode error(String code, String message) {
		ObjectNode data = AgentJson.mapper().createObjectNode();
		data.put("error", code);
		data.put("message", message);
		return data;
	}

}
