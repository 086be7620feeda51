package dev.agcore.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import dev.agcore.json.AgentJson;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link RunStore} in memory, for one instance: runs, queue and events live as long as
 * the JVM. Every change holds one lock, so each is atomic and a run is claimed once.
 *
 * @since 0.1.0
 */
public final class InMemoryRunStore implements RunStore {

	private final Object lock = new Object();

	private final Clock clock;

	// insertion order is submission order: oldest first for claiming, reversed for listing
	private final LinkedHashMap<String, Run> runs = new LinkedHashMap<>();

	private final Map<String, List<RunEvent>> events = new HashMap<>();

	// scoped key -> the run it queued, with the fingerprint of the request
	private final Map<String, Keyed> idempotencyKeys = new HashMap<>();

	// run id -> its scoped key, to free the key when the run is purged
	private final Map<String, String> keysOfRuns = new HashMap<>();

	private final Signal appended = new Signal();

	private final Signal submitted = new Signal();

	public InMemoryRunStore() {
		this(Clock.systemUTC());
	}

	/**
	 * A store on a clock, for tests that move time.
	 * @param clock the clock of leases, deadlines and timestamps
	 */
	public InMemoryRunStore(Clock clock) {
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
	}

	@Override
	public Mono<Run> submit(RunRequest request, @Nullable RunIdempotency idempotency) {
		return Mono.fromCallable(() -> {
			Run run;
			boolean queued = false;
			synchronized (this.lock) {
				Keyed existing = (idempotency != null) ? this.idempotencyKeys.get(idempotency.key()) : null;
				if (existing != null && this.runs.containsKey(existing.runId())) {
					if (!existing.fingerprint().equals(idempotency.fingerprint())) {
						throw new IdempotencyConflictException();
					}
					run = this.runs.get(existing.runId());
				}
				else {
					run = new Run(UUID.randomUUID().toString(), request, RunStatus.QUEUED, null, null, null, 0, false,
							null, null, now(), null, null);
					this.runs.put(run.id(), run);
					this.events.put(run.id(), new ArrayList<>());
					if (idempotency != null) {
						this.idempotencyKeys.put(idempotency.key(), new Keyed(run.id(), idempotency.fingerprint()));
						this.keysOfRuns.put(run.id(), idempotency.key());
					}
					queued = true;
				}
			}
			if (queued) {
				this.submitted.emit(run.id());
			}
			return run;
		});
	}

	@Override
	public Mono<Long> countQueued() {
		return Mono.fromCallable(() -> {
			synchronized (this.lock) {
				return this.runs.values().stream().filter((run) -> run.status() == RunStatus.QUEUED).count();
			}
		});
	}

	@Override
	public Mono<Run> find(String runId) {
		return Mono.fromCallable(() -> {
			synchronized (this.lock) {
				return this.runs.get(runId);
			}
		});
	}

	@Override
	public Flux<Run> list(String sessionId, int offset, int limit) {
		if (offset < 0 || limit < 1) {
			return Flux.error(new IllegalArgumentException("'offset' must be >= 0 and 'limit' >= 1"));
		}
		return Flux.defer(() -> {
			List<Run> session = new ArrayList<>();
			synchronized (this.lock) {
				for (Run run : this.runs.values()) {
					if (run.sessionId().equals(sessionId)) {
						session.add(run);
					}
				}
			}
			Collections.reverse(session);
			return Flux.fromIterable(session).skip(offset).take(limit);
		});
	}

	@Override
	public Flux<Run> claim(String owner, ClaimSettings settings) {
		return Flux.defer(() -> {
			List<Run> claimed = new ArrayList<>();
			List<String> changed = new ArrayList<>();
			synchronized (this.lock) {
				Instant now = now();
				Map<String, Integer> running = new HashMap<>();
				for (Run run : this.runs.values()) {
					if (run.status() == RunStatus.RUNNING && !expired(run, now)) {
						running.merge(run.sessionId(), 1, Integer::sum);
					}
				}
				for (Run run : List.copyOf(this.runs.values())) {
					if (claimed.size() >= settings.max()) {
						break;
					}
					boolean queued = run.status() == RunStatus.QUEUED
							&& (run.request().notBefore() == null || !run.request().notBefore().isAfter(now));
					boolean abandoned = run.status() == RunStatus.RUNNING && expired(run, now);
					if (!queued && !abandoned) {
						continue;
					}
					if (abandoned && run.cancelRequested()) {
						// its worker died before it could stop: nothing left to run
						end(run, RunOutcome.cancelled(), now);
						appendLocked(run.id(), RunEvent.CANCELLED, AgentJson.mapper().createObjectNode(), now);
						changed.add(run.id());
						continue;
					}
					if (abandoned && run.attempts() >= settings.maxAttempts()) {
						Run.RunError error = Run.RunError.leaseExpired();
						end(run, new RunOutcome(RunStatus.FAILED, null, error), now);
						appendLocked(run.id(), RunEvent.FAILED, error(error.code(), error.message()), now);
						changed.add(run.id());
						continue;
					}
					if (running.getOrDefault(run.sessionId(), 0) >= settings.maxPerSession()) {
						continue;
					}
					Run mine = new Run(run.id(), run.request(), RunStatus.RUNNING, run.resume(), null, null,
							run.attempts() + 1, run.cancelRequested(), owner, now.plus(settings.lease()),
							run.createdAt(), (run.startedAt() != null) ? run.startedAt() : now, null);
					this.runs.put(run.id(), mine);
					running.merge(run.sessionId(), 1, Integer::sum);
					claimed.add(mine);
				}
			}
			changed.forEach(this.appended::emit);
			return Flux.fromIterable(claimed);
		});
	}

	@Override
	public Mono<Lease> heartbeat(String runId, String owner, Duration lease) {
		return Mono.fromCallable(() -> {
			synchronized (this.lock) {
				Run run = this.runs.get(runId);
				if (!owns(run, owner)) {
					return Lease.LOST;
				}
				this.runs.put(runId, new Run(run.id(), run.request(), run.status(), run.resume(), run.result(),
						run.error(), run.attempts(), run.cancelRequested(), owner, now().plus(lease), run.createdAt(),
						run.startedAt(), run.finishedAt()));
				return run.cancelRequested() ? Lease.CANCEL_REQUESTED : Lease.HELD;
			}
		});
	}

	@Override
	public Mono<Boolean> finish(String runId, String owner, RunOutcome outcome) {
		return Mono.fromCallable(() -> {
			synchronized (this.lock) {
				Run run = this.runs.get(runId);
				if (!owns(run, owner)) {
					return false;
				}
				end(run, outcome, now());
				return true;
			}
		});
	}

	@Override
	public Mono<Boolean> release(String runId, String owner) {
		return Mono.fromCallable(() -> {
			synchronized (this.lock) {
				Run run = this.runs.get(runId);
				if (!owns(run, owner)) {
					return false;
				}
				this.runs.put(runId, new Run(run.id(), run.request(), RunStatus.QUEUED, run.resume(), null, null,
						run.attempts(), run.cancelRequested(), null, null, run.createdAt(), run.startedAt(), null));
			}
			this.submitted.emit(runId);
			return true;
		});
	}

	@Override
	public Mono<Run> cancel(String runId) {
		return Mono.fromCallable(() -> {
			Run changed;
			boolean event = false;
			synchronized (this.lock) {
				Run run = this.runs.get(runId);
				if (run == null) {
					throw new RunNotFoundException(runId);
				}
				if (run.status() == RunStatus.QUEUED || run.status() == RunStatus.INTERRUPTED) {
					Instant now = now();
					changed = end(run, RunOutcome.cancelled(), now);
					appendLocked(runId, RunEvent.CANCELLED, AgentJson.mapper().createObjectNode(), now);
					event = true;
				}
				else if (run.status() == RunStatus.RUNNING && !run.cancelRequested()) {
					changed = new Run(run.id(), run.request(), run.status(), run.resume(), run.result(), run.error(),
							run.attempts(), true, run.owner(), run.leaseExpiresAt(), run.createdAt(), run.startedAt(),
							run.finishedAt());
					this.runs.put(runId, changed);
				}
				else {
					changed = run;
				}
			}
			if (event) {
				this.appended.emit(runId);
			}
			return changed;
		});
	}

	@Override
	public Mono<Run> resume(String runId, JsonNode resume) {
		return Mono.fromCallable(() -> {
			Run queued;
			synchronized (this.lock) {
				Run run = this.runs.get(runId);
				if (run == null) {
					throw new RunNotFoundException(runId);
				}
				if (run.status() != RunStatus.INTERRUPTED) {
					throw new RunStateException("Run '" + runId + "' is " + run.status().name().toLowerCase(Locale.ROOT)
							+ ", not interrupted: only an interrupted run can be resumed");
				}
				// attempts count claims since a person last queued it
				queued = new Run(run.id(), run.request(), RunStatus.QUEUED, resume, null, null, 0, false,
						null, null, run.createdAt(), run.startedAt(), null);
				this.runs.put(runId, queued);
			}
			this.submitted.emit(runId);
			return queued;
		});
	}

	@Override
	public Mono<RunEvent> append(String runId, String type, JsonNode data) {
		return Mono.fromCallable(() -> {
			RunEvent event;
			synchronized (this.lock) {
				if (!this.runs.containsKey(runId)) {
					throw new RunNotFoundException(runId);
				}
				event = appendLocked(runId, type, data, now());
			}
			this.appended.emit(runId);
			return event;
		});
	}

	@Override
	public Flux<RunEvent> read(String runId, long afterSequence, int limit) {
		if (limit < 1) {
			return Flux.error(new IllegalArgumentException("'limit' must be at least 1, was " + limit));
		}
		return Flux.defer(() -> {
			List<RunEvent> page;
			synchronized (this.lock) {
				List<RunEvent> all = this.events.getOrDefault(runId, List.of());
				// sequence n sits at index n - 1
				int from = (int) Math.min(Math.max(afterSequence, 0), all.size());
				page = List.copyOf(all.subList(from, Math.min(all.size(), from + limit)));
			}
			return Flux.fromIterable(page);
		});
	}

	@Override
	public Flux<String> appended() {
		return this.appended.flux();
	}

	@Override
	public Flux<String> submitted() {
		return this.submitted.flux();
	}

	@Override
	public Mono<Long> purge(Duration retention) {
		return Mono.fromCallable(() -> {
			long removed = 0;
			synchronized (this.lock) {
				Instant before = now().minus(retention);
				Iterator<Run> iterator = this.runs.values().iterator();
				while (iterator.hasNext()) {
					Run run = iterator.next();
					if (run.status().isFinal() && run.finishedAt() != null && run.finishedAt().isBefore(before)) {
						iterator.remove();
						this.events.remove(run.id());
						String key = this.keysOfRuns.remove(run.id());
						if (key != null) {
							this.idempotencyKeys.remove(key);
						}
						removed++;
					}
				}
			}
			return removed;
		});
	}

	private Instant now() {
		return this.clock.instant();
	}

	private static boolean expired(Run run, Instant now) {
		return run.leaseExpiresAt() == null || !run.leaseExpiresAt().isAfter(now);
	}

	private static boolean owns(@Nullable Run run, String owner) {
		return run != null && run.status() == RunStatus.RUNNING && owner.equals(run.owner());
	}

	private Run end(Run run, RunOutcome outcome, Instant now) {
		Run ended = new Run(run.id(), run.request(), outcome.status(), run.resume(), outcome.result(), outcome.error(),
				run.attempts(), run.cancelRequested(), null, null, run.createdAt(), run.startedAt(),
				outcome.status().isFinal() ? now : null);
		this.runs.put(run.id(), ended);
		return ended;
	}

	private RunEvent appendLocked(String runId, String type, JsonNode data, Instant now) {
		List<RunEvent> list = this.events.computeIfAbsent(runId, (id) -> new ArrayList<>());
		RunEvent event = new RunEvent(runId, list.size() + 1, type, data, now);
		list.add(event);
		return event;
	}

	static ObjectNode error(String code, String message) {
		ObjectNode data = AgentJson.mapper().createObjectNode();
		data.put("error", code);
		data.put("message", message);
		return data;
	}

	private record Keyed(String runId, String fingerprint) {
	}

	/**
	 * A hot, best-effort signal: emitting never fails, with or without subscribers.
	 */
	private static final class Signal {

		private final Sinks.Many<String> sink = Sinks.many().multicast().directBestEffort();

		void emit(String runId) {
			// serialized: a sink emitted from two threads at once drops the second signal
			synchronized (this) {
				this.sink.tryEmitNext(runId);
			}
		}

		Flux<String> flux() {
			return this.sink.asFlux();
		}

	}

}
