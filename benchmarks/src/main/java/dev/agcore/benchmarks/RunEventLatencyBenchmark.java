package dev.agcore.benchmarks;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunEventStream;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * How long an event takes from the instance executing a run to a client streaming the run
 * from another instance: {@code deliver} appends an event through store instance A (as a
 * worker does) and waits until a {@link RunEventStream} on store instance B (its own
 * connection pool and listening connection, or its own Redis connection) gives it.
 * {@code appendOnly} is the append through A alone, with the same stream open on B, so
 * the difference is the signal (PostgreSQL {@code NOTIFY}, Redis pub/sub) and B's read.
 * One event at a time: this is latency, not throughput.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class RunEventLatencyBenchmark {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final JsonNode DATA = AgentJson.mapper().createObjectNode().put("text", "a chunk of the answer");

	/** The store: {@code postgresql} or {@code redis}. */
	@Param({ "postgresql", "redis" })
	public String store;

	private RunStoreInstances instances;

	private RunStore executing;

	private final BlockingQueue<RunEvent> received = new LinkedBlockingQueue<>();

	private Disposable streaming;

	private String runId;

	@Setup(Level.Trial)
	public void openStream() throws InterruptedException {
		this.instances = new RunStoreInstances(this.store, 4);
		this.executing = this.instances.open();
		RunStore streamingStore = this.instances.open();
		this.runId = this.executing.submit(RunRequest.of("noop", "noop", "bench-latency", DATA))
			.block(TIMEOUT)
			.id();
		// the poll interval of agent.runs by default; the signal is what delivers
		this.streaming = new RunEventStream(streamingStore, Duration.ofSeconds(1)).events(this.runId, 0)
			.subscribe(this.received::add);
		// the stream is live (listening) once a first event reaches it
		deliver();
	}

	@TearDown(Level.Trial)
	public void close() {
		this.streaming.dispose();
		this.instances.close();
	}

	@Benchmark
	public RunEvent deliver() throws InterruptedException {
		long sequence = this.executing.append(this.runId, "text", DATA).block(TIMEOUT).sequence();
		while (true) {
			RunEvent event = this.received.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
			if (event == null) {
				throw new IllegalStateException("Event " + sequence + " did not reach the other instance");
			}
			if (event.sequence() >= sequence) {
				return event;
			}
		}
	}

	@Benchmark
	public RunEvent appendOnly() {
		RunEvent event = this.executing.append(this.runId, "text", DATA).block(TIMEOUT);
		this.received.clear();
		return event;
	}

}
