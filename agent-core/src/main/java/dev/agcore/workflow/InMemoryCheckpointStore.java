package dev.agcore.workflow;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Keeps checkpoints in this JVM's memory: for one instance and for tests. A checkpoint
 * not written for longer than the time-to-live is dropped when next touched, by
 * {@link #purgeExpired()}, and by a sweep every {@value #SWEEP_EVERY} writes, so that the
 * checkpoints of finished runs do not pile up.
 *
 * @since 0.1.0
 */
public final class InMemoryCheckpointStore implements CheckpointStore {

	/** How many writes pass between two sweeps of expired checkpoints. */
	static final int SWEEP_EVERY = 1024;

	private final Map<String, Stored> checkpoints = new ConcurrentHashMap<>();

	private final AtomicLong writes = new AtomicLong();

	private final Duration ttl;

	private final Clock clock;

	/** Create a store keeping checkpoints for 7 days. */
	public InMemoryCheckpointStore() {
		this(Duration.ofDays(7), Clock.systemUTC());
	}

	/**
	 * Create a store.
	 * @param ttl how long a checkpoint is kept after its last write; {@link Duration#ZERO}
	 * for no limit
	 * @param clock the clock
	 */
	public InMemoryCheckpointStore(Duration ttl, Clock clock) {
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("'ttl' must not be negative (was " + ttl + ")");
		}
		this.ttl = ttl;
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
	}

	@Override
	public Mono<Checkpoint> load(String runId) {
		return Mono.fromCallable(() -> {
			Stored stored = live(runId, this.checkpoints.get(runId));
			return (stored != null) ? stored.checkpoint.requireReadable() : null;
		});
	}

	@Override
	public Mono<Boolean> saveTask(String runId, String callId, JsonNode result) {
		return write(runId, (checkpoint) -> {
			if (checkpoint.tasks().containsKey(callId)) {
				return null;
			}
			Map<String, JsonNode> tasks = new LinkedHashMap<>(checkpoint.tasks());
			tasks.put(callId, result.deepCopy());
			return next(checkpoint, tasks, checkpoint.resumeValues(), checkpoint.interrupts());
		});
	}

	@Override
	public Mono<Boolean> saveResume(String runId, int index, JsonNode value) {
		return write(runId, (checkpoint) -> {
			List<JsonNode> values = checkpoint.resumeValues();
			if (index < values.size()) {
				return null;
			}
			if (index > values.size()) {
				throw gap(runId, index, values.size());
			}
			List<JsonNode> longer = new ArrayList<>(values);
			longer.add(value.deepCopy());
			return next(checkpoint, checkpoint.tasks(), longer, checkpoint.interrupts());
		});
	}

	@Override
	public Mono<Void> saveInterrupt(String runId, int index) {
		return write(runId, (checkpoint) -> (checkpoint.interrupts() > index) ? null
				: next(checkpoint, checkpoint.tasks(), checkpoint.resumeValues(), index + 1))
			.then();
	}

	@Override
	public Mono<Boolean> delete(String runId) {
		return Mono.fromCallable(() -> live(runId, this.checkpoints.remove(runId)) != null);
	}

	/**
	 * Drop every checkpoint older than the time-to-live.
	 * @return how many were dropped
	 */
	public int purgeExpired() {
		int before = this.checkpoints.size();
		this.checkpoints.entrySet().removeIf((entry) -> expired(entry.getValue()));
		return Math.max(0, before - this.checkpoints.size());
	}

	/** Apply a change atomically; a change answering null leaves the checkpoint as it is. */
	private Mono<Boolean> write(String runId, UnaryOperator<@Nullable Checkpoint> change) {
		return Mono.fromCallable(() -> {
			if (this.writes.incrementAndGet() % SWEEP_EVERY == 0) {
				purgeExpired();
			}
			boolean[] written = { false };
			this.checkpoints.compute(runId, (id, stored) -> {
				Stored alive = (stored != null && !expired(stored)) ? stored : null;
				Checkpoint current = (alive != null) ? alive.checkpoint.requireReadable() : Checkpoint.empty(id);
				Checkpoint changed = change.apply(current);
				if (changed == null) {
					return alive;
				}
				written[0] = true;
				return new Stored(changed, this.clock.instant());
			});
			return written[0];
		});
	}

	private @Nullable Stored live(String runId, @Nullable Stored stored) {
		if (stored != null && expired(stored)) {
			this.checkpoints.remove(runId, stored);
			return null;
		}
		return stored;
	}

	private boolean expired(Stored stored) {
		return !this.ttl.isZero() && !stored.writtenAt.plus(this.ttl).isAfter(this.clock.instant());
	}

	private static Checkpoint next(Checkpoint checkpoint, Map<String, JsonNode> tasks, List<JsonNode> resumeValues,
			int interrupts) {
		return new Checkpoint(checkpoint.runId(), Checkpoint.FORMAT_VERSION, checkpoint.version() + 1, tasks,
				resumeValues, interrupts);
	}

	static IllegalArgumentException gap(String runId, int index, int size) {
		return new IllegalArgumentException("Cannot keep the answer to interrupt " + index + " of run '" + runId
				+ "': only " + size + " earlier answers are kept; answers are kept in order");
	}

	/**
	 * Keep a checkpoint as it is, for tests of other formats.
	 * @param checkpoint the checkpoint
	 */
	void put(Checkpoint checkpoint) {
		this.checkpoints.put(checkpoint.runId(), new Stored(checkpoint, this.clock.instant()));
	}

	private record Stored(Checkpoint checkpoint, Instant writtenAt) {

	}

}
