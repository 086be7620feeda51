package dev.agcore.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.json.AgentJson;
import dev.agcore.run.Run;
import dev.agcore.run.RunEmission;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunExecutor;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunWorker;
import dev.agcore.run.RunWorkerSettings;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * How many background runs per second a set of {@link RunWorker}s claims, executes and
 * finishes, with an executor that does nothing but emit one event and complete, so that
 * what is measured is the store's coordination: the claim, the events, the end.
 * <p>
 * Each worker stands for one application instance: it has a store instance of its own
 * (its own connection pool and listening connection on PostgreSQL, its own connection on
 * Redis), and all share one database. A separate store instance, the one an HTTP request
 * would reach, submits the runs, each in its own session. Every worker executes at most 4
 * runs at once (the default). All instances live in this one JVM, on the machine that
 * also runs the database.
 * <ul>
 * <li>{@code drainQueued}: {@value #BATCH} runs are queued before the workers start; the
 * time measured is from starting the workers until every run is finished.</li>
 * <li>{@code submitAndDrain}: the workers are started first, then the {@value #BATCH}
 * runs are submitted (8 at a time) while they work; the time runs until every run is
 * finished.</li>
 * </ul>
 * Results are in runs per second. After each batch the benchmark checks that every run was
 * finished exactly once, and purges the finished runs so that every batch starts from an
 * empty queue.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class RunThroughputBenchmark {

	static final int BATCH = 500;

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	private static final int CONCURRENCY = 4;

	private static final JsonNode DATA = AgentJson.mapper().createObjectNode().put("message", "tick");

	/** The store: {@code postgresql} or {@code redis}. */
	@Param({ "postgresql", "redis" })
	public String store;

	/** How many workers (application instances) claim from the store. */
	@Param({ "1", "2", "4" })
	public int workers;

	private RunStoreInstances instances;

	private RunStore submitter;

	private final List<RunWorker> runWorkers = new ArrayList<>();

	private final AtomicInteger finished = new AtomicInteger();

	private volatile CountDownLatch drained = new CountDownLatch(0);

	private int batches;

	@Setup(Level.Trial)
	public void createWorkers() {
		// each instance: a claim, a heartbeat, the listening connection and its executions
		this.instances = new RunStoreInstances(this.store, CONCURRENCY + 3);
		this.submitter = this.instances.open();
		NoOpExecutor executor = new NoOpExecutor();
		for (int i = 0; i < this.workers; i++) {
			RunStore own = new FinishCountingRunStore(this.instances.open(), this.finished,
					() -> this.drained.countDown());
			RunWorkerSettings settings = RunWorkerSettings.defaults()
				.withConcurrency(CONCURRENCY)
				.withOwner("bench-worker-" + i + "-" + RunWorkerSettings.newOwner());
			this.runWorkers.add(new RunWorker(own, List.of(executor), settings, null));
		}
	}

	@Setup(Level.Invocation)
	public void prepareBatch(BenchmarkParams params) {
		this.submitter.purge(Duration.ZERO).block(TIMEOUT);
		this.finished.set(0);
		this.drained = new CountDownLatch(BATCH);
		this.batches++;
		if (params.getBenchmark().endsWith("drainQueued")) {
			submitBatch();
		}
	}

	@TearDown(Level.Invocation)
	public void stopWorkers() {
		Mono.when(this.runWorkers.stream().map(RunWorker::stop).toList()).block(TIMEOUT);
		if (this.finished.get() != BATCH) {
			throw new IllegalStateException(
					"Expected " + BATCH + " runs finished once each, counted " + this.finished.get());
		}
	}

	@TearDown(Level.Trial)
	public void close() {
		this.instances.close();
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long drainQueued() throws InterruptedException {
		this.runWorkers.forEach(RunWorker::start);
		return awaitDrained();
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long submitAndDrain() throws InterruptedException {
		this.runWorkers.forEach(RunWorker::start);
		submitBatch();
		return awaitDrained();
	}

	private void submitBatch() {
		int batch = this.batches;
		Flux.range(0, BATCH)
			.flatMap((i) -> this.submitter
				.submit(RunRequest.of(NoOpExecutor.KIND, NoOpExecutor.KIND, "bench-" + batch + "-" + i, DATA)), 8)
			.then()
			.block(TIMEOUT);
	}

	private long awaitDrained() throws InterruptedException {
		if (!this.drained.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
			throw new IllegalStateException("Only " + this.finished.get() + " of " + BATCH + " runs finished within "
					+ TIMEOUT);
		}
		return this.finished.get();
	}

	/** Emits one event and completes. */
	static final class NoOpExecutor implements RunExecutor {

		static final String KIND = "noop";

		@Override
		public String kind() {
			return KIND;
		}

		@Override
		public List<String> targets() {
			return List.of(KIND);
		}

		@Override
		public Flux<RunEmission> execute(Run run) {
			return Flux.just(RunEmission.event("tick", DATA),
					RunEmission.end(RunEvent.COMPLETED, DATA, RunOutcome.completed(null)));
		}

	}

}
