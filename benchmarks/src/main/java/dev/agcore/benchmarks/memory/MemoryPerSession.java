package dev.agcore.benchmarks.memory;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import dev.agcore.benchmarks.LoadAverage;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.SessionDirectory;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import org.jspecify.annotations.Nullable;

/**
 * The heap an agent holds per idle in-memory session, and per streamed turn in flight,
 * at a thousand of each (issue 15). An agent with the default
 * {@link InMemoryConversationStore} builds every session's history through real turns
 * ({@link Agent#call}), then starts one streamed turn ({@link Agent#stream}) in every
 * session against a model that holds each stream after half of its chunks, and finally
 * lets them finish. Each state is measured as the live heap after a full collection, by
 * class ({@code GC.class_histogram}), so the table says what the bytes are. See
 * docs/performance.md, "Memory per session".
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -Xms1g -Xmx1g -cp benchmarks/target/benchmarks.jar dev.agcore.benchmarks.memory.MemoryPerSession
 * </pre>
 */
public final class MemoryPerSession {

	static final String SYSTEM_PROMPT = "You are the assistant of a small coffee equipment shop. Answer in two "
			+ "or three sentences, and say so when you do not know.";

	private static final Duration TIMEOUT = Duration.ofMinutes(2);

	private static final String FILLER = " It was bought last spring and the steam wand has started to sputter"
			+ " since the descaling; what should I check first?";

	private MemoryPerSession() {
	}

	public static void main(String[] args) throws InterruptedException, IOException {
		MemoryOptions options;
		try {
			options = MemoryOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(MemoryOptions.USAGE);
			System.exit(2);
			return;
		}
		String loadBefore = LoadAverage.read();
		MemoryReport report = run(options, System.err::println);
		System.out.println(report.header(loadBefore, LoadAverage.read()));
		System.out.println(report.table());
	}

	/**
	 * Measure the states of the options' sessions, in this JVM.
	 * @param options the options
	 * @param progress told what is being done
	 * @return the measurements
	 * @throws InterruptedException if interrupted
	 * @throws IOException if a heap histogram cannot be kept in a temporary file
	 * @throws IllegalStateException when a turn fails, or the store does not hold what the
	 * turns wrote
	 */
	static MemoryReport run(MemoryOptions options, Consumer<String> progress)
			throws InterruptedException, IOException {
		HeldStreamModel model = new HeldStreamModel(options.answerChars(), options.chunks());
		InMemoryConversationStore store = new InMemoryConversationStore();
		InMemoryKeyValueStore keyValueStore = new InMemoryKeyValueStore();
		Agent agent = Agent.builder()
			.name("memory")
			.model(model)
			.systemPrompt(SYSTEM_PROMPT)
			.conversationStore(store)
			.store(keyValueStore)
			.metrics(AgentMetrics.NOOP)
			.build();
		progress.accept("warming up: every path once, so that what is made lazily is in the baseline");
		warmUp(agent, store, keyValueStore, model, options);

		MemoryReport.State empty = measure(options, "empty", 0);
		progress.accept("building " + options.sessions() + " sessions of " + options.turns() + " turns");
		for (int session = 0; session < options.sessions(); session++) {
			for (int turn = 0; turn < options.turns(); turn++) {
				AgentResult result = agent.call(request(options, session, turn));
				if (result.status() != AgentResult.Status.COMPLETED) {
					throw new IllegalStateException("A history turn ended " + result.status());
				}
			}
		}
		expectMessages(agent, options, 2 * options.turns());
		MemoryReport.State idle = measure(options, "idle", options.sessions());

		progress.accept("holding " + options.sessions() + " streamed turns after " + model.chunksBeforeHold() + " of "
				+ options.chunks() + " chunks");
		model.hold();
		Turns turns = new Turns(options.sessions(), model.chunksBeforeHold());
		for (int session = 0; session < options.sessions(); session++) {
			agent.stream(request(options, session, options.turns())).subscribe(turns.watcher());
		}
		turns.awaitHeld();
		MemoryReport.State inFlight = measure(options, "in-flight", options.sessions());
		progress.accept("releasing the streams");
		model.release();
		turns.awaitFinished();
		expectMessages(agent, options, 2 * options.turns() + 2);
		MemoryReport.State after = measure(options, "after", options.sessions());
		return new MemoryReport(options, model.chunksBeforeHold(), empty, idle, inFlight, after);
	}

	// the same paths as the measured ones, in a session removed afterwards
	private static void warmUp(Agent agent, InMemoryConversationStore store, InMemoryKeyValueStore keyValueStore,
			HeldStreamModel model, MemoryOptions options) throws InterruptedException, IOException {
		for (int turn = 0; turn < 3; turn++) {
			agent.call(AgentRequest.of("warm-up", question(options, -1, turn)).withUserId("warm-up"));
		}
		model.hold();
		Turns turns = new Turns(1, model.chunksBeforeHold());
		agent.stream(AgentRequest.of("warm-up", question(options, -1, 3)).withUserId("warm-up"))
			.subscribe(turns.watcher());
		turns.awaitHeld();
		model.release();
		turns.awaitFinished();
		// and the temporary files of the histograms: their first one loads the security providers
		Files.deleteIfExists(HeapHistogram.write(""));
		store.clear("warm-up").block();
		keyValueStore.clear(SessionDirectory.NAMESPACE_PREFIX + "warm-up").block();
	}

	private static MemoryReport.State measure(MemoryOptions options, String name, int count) {
		Path dumps = options.heapDumps();
		if (dumps != null) {
			HeapHistogram.dump(dumps.resolve(name + ".hprof"));
		}
		String histogram = HeapHistogram.histogramText();
		long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		return new MemoryReport.State(name, count, HeapHistogram.write(histogram),
				HeapHistogram.parse(histogram).totalBytes(), used);
	}

	private static void expectMessages(Agent agent, MemoryOptions options, int expected) {
		for (int session = 0; session < options.sessions(); session++) {
			int size = agent.history(sessionId(session)).blockOptional().map(List::size).orElse(0);
			if (size != expected) {
				throw new IllegalStateException(
						"Session " + session + " holds " + size + " messages, not " + expected);
			}
		}
	}

	private static AgentRequest request(MemoryOptions options, int session, int turn) {
		AgentRequest request = AgentRequest.of(sessionId(session), question(options, session, turn));
		return (options.users() > 0) ? request.withUserId("user-" + (session % options.users())) : request;
	}

	static String sessionId(int session) {
		return "session-" + session;
	}

	// a new string per question, of the configured length
	static String question(MemoryOptions options, int session, int turn) {
		StringBuilder question = new StringBuilder(options.userChars());
		question.append("Question ").append(turn + 1).append(" of session ").append(session).append(':');
		while (question.length() < options.userChars()) {
			question.append(FILLER, 0, Math.min(FILLER.length(), options.userChars() - question.length()));
		}
		question.setLength(options.userChars());
		return question.toString();
	}

	/**
	 * Watches streamed turns: how many have received their chunks up to the hold, and how
	 * many have ended; remembers the first that did not complete.
	 */
	private static final class Turns {

		private final int textEventsBeforeHold;

		private final CountDownLatch held;

		private final CountDownLatch finished;

		private final AtomicInteger completed = new AtomicInteger();

		private final AtomicReference<@Nullable String> failure = new AtomicReference<>();

		Turns(int count, int textEventsBeforeHold) {
			this.textEventsBeforeHold = textEventsBeforeHold;
			this.held = new CountDownLatch(count);
			this.finished = new CountDownLatch(count);
		}

		Consumer<AgentEvent> watcher() {
			int[] texts = new int[1];
			return (event) -> {
				if (event instanceof AgentEvent.TextDelta && ++texts[0] == this.textEventsBeforeHold) {
					this.held.countDown();
				}
				else if (event instanceof AgentEvent.Completed) {
					this.completed.incrementAndGet();
					this.finished.countDown();
				}
				else if (event instanceof AgentEvent.Failed || event instanceof AgentEvent.Interrupted) {
					this.failure.compareAndSet(null, event.toString());
					this.held.countDown();
					this.finished.countDown();
				}
			};
		}

		void awaitHeld() throws InterruptedException {
			await(this.held, "reach the hold");
		}

		void awaitFinished() throws InterruptedException {
			await(this.finished, "finish");
		}

		private void await(CountDownLatch latch, String what) throws InterruptedException {
			if (!latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException(latch.getCount() + " streamed turns did not " + what + " in " + TIMEOUT);
			}
			String failed = this.failure.get();
			if (failed != null) {
				throw new IllegalStateException("A streamed turn did not complete: " + failed);
			}
		}

	}

}
