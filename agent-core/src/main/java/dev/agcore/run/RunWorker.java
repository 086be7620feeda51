package dev.agcore.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.context.MdcKeys;
import dev.agcore.json.AgentJson;
import dev.agcore.runtime.TurnFailure;
import dev.agcore.support.LogSafe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Executes the runs of a {@link RunStore} on this instance, a bounded number at once. It
 * claims runs when it has free slots (woken by the store's {@link RunStore#submitted()
 * signal}, a finished run or its poll interval), executes each with the
 * {@link RunExecutor} of its kind, stores every emission as an event, renews the run's
 * lease while it executes and writes how it ended.
 * <p>
 * An execution stops when its run is cancelled (at once for a cancel
 * {@link #cancel(String) asked on this instance}, else at the next heartbeat), when its
 * deadline passes, when the worker loses its lease (it then writes nothing more: the run
 * belongs to another worker) or when the worker {@link #stop() stops} (its runs are given
 * back to the queue for another instance).
 *
 * @since 0.1.0
 */
public final class RunWorker {

	private static final Log logger = LogFactory.getLog(RunWorker.class);

	static final String INTERNAL_ERROR = "The run failed unexpectedly; the server log has the details";

	private final RunStore store;

	private final Map<String, RunExecutor> executors;

	private final RunWorkerSettings settings;

	private final @Nullable MeterRegistry registry;

	private final Map<String, Execution> executions = new ConcurrentHashMap<>();

	/** How often the queued runs are counted for the gauge, at the least. */
	static final Duration QUEUE_COUNT_INTERVAL = Duration.ofSeconds(15);

	private final AtomicInteger active = new AtomicInteger();

	private final Sinks.Many<Boolean> wake = Sinks.many().multicast().directBestEffort();

	private volatile @Nullable Disposable claiming;

	private volatile @Nullable Disposable counting;

	private Duration queueCountInterval = QUEUE_COUNT_INTERVAL;

	/** The queued runs as last counted; NaN until counted, or when the store cannot count. */
	private volatile double queued = Double.NaN;

	private volatile boolean running;

	public RunWorker(RunStore store, Collection<? extends RunExecutor> executors, RunWorkerSettings settings,
			@Nullable MeterRegistry registry) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		this.executors = byKind(executors);
		this.settings = Objects.requireNonNull(settings, "'settings' must not be null");
		this.registry = registry;
		if (registry != null) {
			Gauge.builder("agent.runs.active", this.active, AtomicInteger::get)
				.description("Runs executing on this instance")
				.register(registry);
			Gauge.builder("agent.runs.queued", this, (worker) -> worker.queued)
				.description("Runs waiting in the store's queue, as last counted (the same on every instance)")
				.register(registry);
		}
	}

	/**
	 * The executors by kind.
	 * @param executors the executors
	 * @return them by kind
	 * @throws IllegalArgumentException when two executors have one kind
	 */
	public static Map<String, RunExecutor> byKind(Collection<? extends RunExecutor> executors) {
		Map<String, RunExecutor> byKind = new LinkedHashMap<>();
		for (RunExecutor executor : executors) {
			RunExecutor other = byKind.putIfAbsent(executor.kind(), executor);
			if (other != null) {
				throw new IllegalArgumentException("Two run executors have the kind '" + executor.kind() + "': "
						+ other.getClass().getName() + " and " + executor.getClass().getName());
			}
		}
		return byKind;
	}

	/**
	 * Start claiming runs. Does nothing when started already.
	 */
	public synchronized void start() {
		if (this.claiming != null) {
			return;
		}
		Duration poll = this.settings.pollInterval();
		this.running = true;
		this.claiming = Flux
			.merge(this.store.submitted().map((id) -> true), this.wake.asFlux(), Flux.interval(Duration.ZERO, poll))
			.onBackpressureLatest()
			.concatMap((signal) -> claim(), 1)
			.subscribe();
		if (this.registry != null) {
			// a count per poll would cost each instance a query per second: count less often
			Duration every = (poll.compareTo(this.queueCountInterval) > 0) ? poll : this.queueCountInterval;
			this.counting = Flux.interval(Duration.ZERO, every)
				.onBackpressureDrop()
				.concatMap((tick) -> this.store.countQueued().onErrorResume((ex) -> Mono.empty()), 1)
				.subscribe((count) -> this.queued = count);
		}
	}

	/** For tests: count the queued runs more often than every 15 seconds. */
	void queueCountInterval(Duration interval) {
		this.queueCountInterval = interval;
	}

	/**
	 * Stop claiming, stop the executions under way and give their runs back to the queue
	 * so that another instance claims them now.
	 * @return completes once every run was given back
	 */
	public Mono<Void> stop() {
		Disposable claiming;
		Disposable counting;
		synchronized (this) {
			claiming = this.claiming;
			counting = this.counting;
			this.claiming = null;
			this.counting = null;
			this.running = false;
		}
		if (claiming != null) {
			claiming.dispose();
		}
		if (counting != null) {
			counting.dispose();
		}
		List<Mono<Void>> ended = new ArrayList<>();
		for (Execution execution : List.copyOf(this.executions.values())) {
			execution.stop(Ending.RELEASE);
			ended.add(execution.done.asMono());
		}
		return Mono.when(ended);
	}

	/**
	 * Whether the worker claims runs.
	 * @return whether it was started and not stopped
	 */
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * How many runs execute on this instance now.
	 * @return the count
	 */
	public int activeCount() {
		return this.active.get();
	}

	/**
	 * Stop a run executing on this instance at once, as cancelled; call it after
	 * {@link RunStore#cancel} asked for cancelling, so that the run stops without waiting
	 * for its next heartbeat.
	 * @param runId the run
	 * @return whether it executes here
	 */
	public boolean cancel(String runId) {
		Execution execution = this.executions.get(runId);
		if (execution == null) {
			return false;
		}
		execution.stop(Ending.CANCEL);
		return true;
	}

	public RunWorkerSettings settings() {
		return this.settings;
	}

	private Mono<Void> claim() {
		int free = this.settings.concurrency() - this.active.get();
		if (free <= 0 || !this.running) {
			return Mono.empty();
		}
		return this.store.claim(this.settings.owner(), this.settings.claimSettings(free))
			.doOnNext(this::execute)
			.then()
			.onErrorResume((ex) -> {
				logger.warn("Claiming runs failed, trying again at the next poll: " + LogSafe.text(ex.getMessage()));
				return Mono.empty();
			});
	}

	private void execute(Run run) {
		Execution execution = new Execution();
		this.executions.put(run.id(), execution);
		this.active.incrementAndGet();
		Duration heartbeat = this.settings.heartbeatInterval();
		Disposable heartbeats = Flux.interval(heartbeat, heartbeat)
			.onBackpressureDrop()
			.concatMap((tick) -> this.store.heartbeat(run.id(), this.settings.owner(), this.settings.lease())
				.onErrorResume((ex) -> {
					// the store is down: the lease may expire, and then another worker takes over
					logger.warn("Renewing the lease of run " + LogSafe.text(run.id()) + " failed: "
							+ LogSafe.text(ex.getMessage()));
					return Mono.empty();
				}), 1)
			.subscribe((lease) -> {
				if (lease == RunStore.Lease.LOST) {
					execution.stop(Ending.LOST);
				}
				else if (lease == RunStore.Lease.CANCEL_REQUESTED) {
					execution.stop(Ending.CANCEL);
				}
			});
		Duration deadline = (run.request().deadline() != null) ? run.request().deadline() : this.settings.deadline();
		Disposable timer = Mono.delay(deadline).subscribe((tick) -> execution.stop(Ending.DEADLINE));
		if (!this.running) {
			// claimed while the worker stopped: give it back at once
			execution.stop(Ending.RELEASE);
		}
		Mono.firstWithSignal(body(run), execution.stop.asMono())
			.flatMap((ending) -> end(run, ending, deadline))
			.onErrorResume((ex) -> {
				logger.warn("Writing the end of run " + LogSafe.text(run.id()) + " failed: "
						+ LogSafe.text(ex.getMessage()));
				return Mono.empty();
			})
			.doFinally((signal) -> {
				heartbeats.dispose();
				timer.dispose();
				this.executions.remove(run.id());
				this.active.decrementAndGet();
				execution.done.tryEmitEmpty();
				// a free slot: claim again now rather than at the next poll
				if (this.running) {
					this.wake.tryEmitNext(true);
				}
			})
			.subscribe();
	}

	// the run's events until its outcome, which is handed on, not stored yet: a stop
	// arriving first (cancel, deadline, lost lease) decides the ending instead
	private Mono<Ending> body(Run run) {
		RunExecutor executor = this.executors.get(run.kind());
		if (executor == null) {
			return Mono.just(Ending.failed("unknown_kind", "No executor runs runs of kind '" + run.kind()
					+ "'; known kinds: " + this.executors.keySet()));
		}
		ObjectNode started = AgentJson.mapper().createObjectNode();
		started.put("attempt", run.attempts());
		return this.store.append(run.id(), RunEvent.STARTED, started)
			.thenMany(MdcKeys.with(MdcKeys.RUN, LogSafe.text(run.id()), Flux.defer(() -> executor.execute(run)))
				.subscribeOn(Schedulers.boundedElastic()))
			.concatMap((emission) -> (emission.outcome() != null) ? Mono.just(emission)
					: this.store.append(run.id(), emission.type(), emission.data()).then(Mono.<RunEmission>empty()))
			.next()
			.map(Ending::of)
			.defaultIfEmpty(Ending.COMPLETED_EMPTY)
			.onErrorResume((ex) -> Mono.just(failure(run, ex)));
	}

	private Ending failure(Run run, Throwable ex) {
		TurnFailure failure = TurnFailure.of(ex);
		if (failure == null) {
			logger.error("Run " + LogSafe.text(run.id()) + " (" + run.kind() + " '" + LogSafe.text(run.target())
					+ "') failed", LogSafe.throwable(ex));
			return Ending.failed("internal_error", INTERNAL_ERROR);
		}
		logger.warn("Run " + LogSafe.text(run.id()) + " failed with " + failure.code() + ": "
				+ LogSafe.text(ex.getMessage()));
		return Ending.failed(failure.code(), failure.message());
	}

	private Mono<Void> end(Run run, Ending ending, Duration deadline) {
		String owner = this.settings.owner();
		if (ending == Ending.LOST) {
			logger.info("Run " + LogSafe.text(run.id()) + " was taken over by another worker; this one stops writing");
			return Mono.empty();
		}
		if (ending == Ending.RELEASE) {
			return this.store.release(run.id(), owner).then();
		}
		Ending written = (ending == Ending.DEADLINE) ? Ending.failed("deadline_exceeded",
				"The run did not finish within its deadline of " + deadline) : ending;
		return this.store.append(run.id(), written.type, written.data)
			.then(this.store.finish(run.id(), owner, written.outcome))
			.doOnNext((finished) -> {
				if (finished) {
					count(run, written.outcome.status());
				}
				else {
					logger.info("Run " + LogSafe.text(run.id())
							+ " was taken over by another worker before it ended here");
				}
			})
			.then();
	}

	private void count(Run run, RunStatus status) {
		if (this.registry == null) {
			return;
		}
		RunExecutor executor = this.executors.get(run.kind());
		// configured names only: a tag's values must stay few
		String target = (executor != null && executor.targets().contains(run.target())) ? run.target() : "unknown";
		String kind = (executor != null) ? run.kind() : "unknown";
		Counter.builder("agent.runs.completed")
			.description("Runs that ended, by how")
			.tag("kind", kind)
			.tag("target", target)
			.tag("status", status.name().toLowerCase(Locale.ROOT))
			.register(this.registry)
			.increment();
	}

	/**
	 * One run executing here.
	 */
	private static final class Execution {

		private final Sinks.One<Ending> stop = Sinks.one();

		private final Sinks.Empty<Void> done = Sinks.empty();

		void stop(Ending ending) {
			// the first stop wins; the body's own ending races with it in firstWithSignal
			this.stop.tryEmitValue(ending);
		}

	}

	/**
	 * How an execution ends: the event to store and the outcome to write, or one of the
	 * stops that write differently.
	 */
	private static final class Ending {

		static final Ending CANCEL = new Ending(RunEvent.CANCELLED, AgentJson.mapper().createObjectNode(),
				RunOutcome.cancelled());

		static final Ending COMPLETED_EMPTY = new Ending(RunEvent.COMPLETED, AgentJson.mapper().createObjectNode(),
				RunOutcome.completed(null));

		static final Ending DEADLINE = new Ending("deadline", AgentJson.mapper().nullNode(), RunOutcome.cancelled());

		static final Ending LOST = new Ending("lost", AgentJson.mapper().nullNode(), RunOutcome.cancelled());

		static final Ending RELEASE = new Ending("release", AgentJson.mapper().nullNode(), RunOutcome.cancelled());

		final String type;

		final JsonNode data;

		final RunOutcome outcome;

		private Ending(String type, JsonNode data, RunOutcome outcome) {
			this.type = type;
			this.data = data;
			this.outcome = outcome;
		}

		static Ending of(RunEmission emission) {
			return new Ending(emission.type(), emission.data(), Objects.requireNonNull(emission.outcome()));
		}

		static Ending failed(String code, String message) {
			return new Ending(RunEvent.FAILED, InMemoryRunStore.error(code, message),
					RunOutcome.failed(code, message));
		}

	}

}
