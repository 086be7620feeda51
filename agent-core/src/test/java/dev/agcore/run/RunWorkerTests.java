package dev.agcore.run;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import dev.agcore.json.AgentJson;
import dev.agcore.runtime.TurnTimeoutException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RunWorker}, with a scripted executor whose runs are named by their
 * target.
 */
class RunWorkerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final InMemoryRunStore store = new InMemoryRunStore();

	private final ScriptedExecutor executor = new ScriptedExecutor();

	private final List<RunWorker> workers = new ArrayList<>();

	@AfterEach
	void stopWorkers() {
		this.workers.forEach((worker) -> worker.stop().block(TIMEOUT));
	}

	@Test
	void executesARunStoringItsEventsInOrderAndItsOutcome() {
		this.executor.script("ok", (run) -> Flux.just(RunEmission.event("text", json("{\"text\":\"a\"}")),
				RunEmission.event("text", json("{\"text\":\"b\"}")),
				RunEmission.end(RunEvent.COMPLETED, json("{\"output\":\"ab\"}"),
						RunOutcome.completed(json("{\"output\":\"ab\"}")))));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		worker(settings(), registry);
		Run run = submit("ok");
		Run done = awaitStatus(run.id(), RunStatus.COMPLETED);
		assertThat(done.result()).isEqualTo(json("{\"output\":\"ab\"}"));
		List<RunEvent> events = events(run.id());
		assertThat(events).extracting(RunEvent::type).containsExactly(RunEvent.STARTED, "text", "text",
				RunEvent.COMPLETED);
		assertThat(events.get(0).data().get("attempt").asInt()).isEqualTo(1);
		assertThat(events).extracting(RunEvent::sequence).containsExactly(1L, 2L, 3L, 4L);
		eventually(() -> registry.find("agent.runs.completed")
			.tags("kind", "test", "target", "ok", "status", "completed")
			.counter() != null);
		assertThat(registry.get("agent.runs.completed").counter().count()).isEqualTo(1.0);
	}

	@Test
	void queuedRunsAreAGauge() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		// not due for a minute: it stays queued
		this.store.submit(request("ok").withNotBefore(Instant.now().plusSeconds(60))).block(TIMEOUT);
		RunWorker worker = new RunWorker(this.store, List.of(this.executor), settings(), registry);
		worker.queueCountInterval(Duration.ofMillis(20));
		this.workers.add(worker);
		worker.start();
		eventually(() -> registry.get("agent.runs.queued").gauge().value() == 1.0);
		this.store.submit(request("ok").withNotBefore(Instant.now().plusSeconds(60))).block(TIMEOUT);
		eventually(() -> registry.get("agent.runs.queued").gauge().value() == 2.0);
	}

	@Test
	void executionCompletingWithoutAnOutcomeCompletesTheRun() {
		this.executor.script("quiet", (run) -> Flux.just(RunEmission.event("text", json("{}"))));
		worker(settings(), null);
		Run run = submit("quiet");
		assertThat(awaitStatus(run.id(), RunStatus.COMPLETED).result()).isNull();
		assertThat(events(run.id())).extracting(RunEvent::type).endsWith(RunEvent.COMPLETED);
	}

	@Test
	void interruptedOutcomeKeepsThePayload() {
		this.executor.script("ask", (run) -> Flux.just(RunEmission.end(RunEvent.INTERRUPTED, json("{\"q\":1}"),
				RunOutcome.interrupted(json("{\"q\":1}")))));
		worker(settings(), null);
		Run run = submit("ask");
		assertThat(awaitStatus(run.id(), RunStatus.INTERRUPTED).result()).isEqualTo(json("{\"q\":1}"));
	}

	@Test
	void knownFailureKeepsItsStableCodeAndUnknownOneIsGeneric() {
		this.executor.script("slow", (run) -> Flux.error(new TurnTimeoutException("assistant", Duration.ofSeconds(1))));
		this.executor.script("bug", (run) -> Flux.error(new IllegalStateException("secret internals")));
		worker(settings(), null);
		Run slow = submit("slow");
		Run bug = submit("bug");
		assertThat(awaitStatus(slow.id(), RunStatus.FAILED).error().code()).isEqualTo("turn_timeout");
		Run failed = awaitStatus(bug.id(), RunStatus.FAILED);
		assertThat(failed.error().code()).isEqualTo("internal_error");
		assertThat(failed.error().message()).doesNotContain("secret");
		RunEvent last = events(bug.id()).get(events(bug.id()).size() - 1);
		assertThat(last.type()).isEqualTo(RunEvent.FAILED);
		assertThat(last.data().get("error").asString()).isEqualTo("internal_error");
		assertThat(last.data().toString()).doesNotContain("secret");
	}

	@Test
	void runOfAnUnknownKindFails() {
		worker(settings(), null);
		Run run = this.store.submit(RunRequest.of("nope", "x", "s1", json("{}"))).block(TIMEOUT);
		assertThat(awaitStatus(run.id(), RunStatus.FAILED).error().code()).isEqualTo("unknown_kind");
	}

	@Test
	void deadlineStopsTheExecutionAndFailsTheRun() {
		AtomicBoolean cancelled = new AtomicBoolean();
		this.executor.script("forever", (run) -> Flux.<RunEmission>never().doOnCancel(() -> cancelled.set(true)));
		worker(settings(), null);
		Run run = this.store.submit(request("forever").withDeadline(Duration.ofMillis(200))).block(TIMEOUT);
		Run failed = awaitStatus(run.id(), RunStatus.FAILED);
		assertThat(failed.error().code()).isEqualTo("deadline_exceeded");
		eventually(cancelled::get);
		assertThat(events(run.id())).extracting(RunEvent::type).containsExactly(RunEvent.STARTED, RunEvent.FAILED);
	}

	@Test
	void cancelOnThisInstanceStopsTheExecutionAtOnce() {
		AtomicBoolean cancelled = new AtomicBoolean();
		AtomicBoolean subscribed = new AtomicBoolean();
		this.executor.script("forever", (run) -> Flux.<RunEmission>never()
			.doOnSubscribe((subscription) -> subscribed.set(true))
			.doOnCancel(() -> cancelled.set(true)));
		// heartbeats too rare to be what stops it
		RunWorker worker = worker(settings().withLease(Duration.ofMinutes(10), Duration.ofMinutes(5)), null);
		Run run = submit("forever");
		awaitStatus(run.id(), RunStatus.RUNNING);
		eventually(subscribed::get);
		this.store.cancel(run.id()).block(TIMEOUT);
		assertThat(worker.cancel(run.id())).isTrue();
		awaitStatus(run.id(), RunStatus.CANCELLED);
		eventually(cancelled::get);
		assertThat(events(run.id())).extracting(RunEvent::type).containsExactly(RunEvent.STARTED, RunEvent.CANCELLED);
	}

	@Test
	void cancelRequestedElsewhereStopsTheExecutionAtItsHeartbeat() {
		AtomicBoolean cancelled = new AtomicBoolean();
		AtomicBoolean subscribed = new AtomicBoolean();
		this.executor.script("forever", (run) -> Flux.<RunEmission>never()
			.doOnSubscribe((subscription) -> subscribed.set(true))
			.doOnCancel(() -> cancelled.set(true)));
		worker(settings(), null);
		Run run = submit("forever");
		awaitStatus(run.id(), RunStatus.RUNNING);
		eventually(subscribed::get);
		this.store.cancel(run.id()).block(TIMEOUT);
		awaitStatus(run.id(), RunStatus.CANCELLED);
		eventually(cancelled::get);
		assertThat(events(run.id())).extracting(RunEvent::type).endsWith(RunEvent.CANCELLED);
	}

	@Test
	void workerThatLostItsLeaseWritesNothingMore() {
		AtomicBoolean cancelled = new AtomicBoolean();
		AtomicBoolean lost = new AtomicBoolean();
		this.executor.script("slow", (run) -> Flux.<RunEmission>never().doOnCancel(() -> cancelled.set(true)));
		RunStore losing = new ForwardingRunStore(this.store) {

			@Override
			public Mono<Lease> heartbeat(String runId, String owner, Duration lease) {
				return lost.get() ? Mono.just(Lease.LOST) : super.heartbeat(runId, owner, lease);
			}

		};
		RunWorker worker = new RunWorker(losing, List.of(this.executor), settings(), null);
		this.workers.add(worker);
		worker.start();
		Run run = submit("slow");
		awaitStatus(run.id(), RunStatus.RUNNING);
		eventually(() -> events(run.id()).size() == 1);
		lost.set(true);
		eventually(cancelled::get);
		eventually(() -> worker.activeCount() == 0);
		assertThat(events(run.id())).extracting(RunEvent::type).containsExactly(RunEvent.STARTED);
		assertThat(this.store.find(run.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.RUNNING);
	}

	@Test
	void stoppingGivesRunsBackForAnotherWorker() {
		Map<String, Integer> attempts = new ConcurrentHashMap<>();
		this.executor.script("long", (run) -> {
			attempts.put(run.id(), run.attempts());
			return (run.attempts() == 1) ? Flux.never()
					: Flux.just(RunEmission.end(RunEvent.COMPLETED, json("{}"), RunOutcome.completed(null)));
		});
		RunWorker first = new RunWorker(this.store, List.of(this.executor), settings().withOwner("first"), null);
		first.start();
		Run run = submit("long");
		awaitStatus(run.id(), RunStatus.RUNNING);
		eventually(() -> first.activeCount() == 1);
		first.stop().block(TIMEOUT);
		Run released = this.store.find(run.id()).block(TIMEOUT);
		assertThat(released.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(released.owner()).isNull();
		worker(settings().withOwner("second"), null);
		awaitStatus(run.id(), RunStatus.COMPLETED);
		assertThat(attempts.get(run.id())).isEqualTo(2);
		assertThat(events(run.id())).extracting(RunEvent::type)
			.containsExactly(RunEvent.STARTED, RunEvent.STARTED, RunEvent.COMPLETED);
	}

	@Test
	void runsNoMoreThanItsConcurrencyAtOnce() {
		this.executor.script("forever", (run) -> Flux.never());
		RunWorker worker = worker(settings().withConcurrency(2), null);
		for (int i = 0; i < 5; i++) {
			this.store.submit(RunRequest.of("test", "forever", "s" + i, json("{}"))).block(TIMEOUT);
		}
		eventually(() -> worker.activeCount() == 2);
		sleep(300);
		assertThat(worker.activeCount()).isEqualTo(2);
		assertThat(this.store.claim("other", settings().claimSettings(10)).collectList().block(TIMEOUT)).hasSize(3);
	}

	@Test
	void duplicateKindsAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RunWorker(this.store, List.of(this.executor, new ScriptedExecutor()), settings(),
					null))
			.withMessageContaining("'test'");
	}

	@Test
	void heartbeatMustBeShorterThanTheLease() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> settings().withLease(Duration.ofSeconds(5), Duration.ofSeconds(5)))
			.withMessageContaining("heartbeatInterval")
			.withMessageContaining("lease");
	}

	private RunWorkerSettings settings() {
		return RunWorkerSettings.defaults()
			.withLease(Duration.ofSeconds(5), Duration.ofMillis(50))
			.withPollInterval(Duration.ofMillis(50));
	}

	private RunWorker worker(RunWorkerSettings settings, io.micrometer.core.instrument.MeterRegistry registry) {
		RunWorker worker = new RunWorker(this.store, List.of(this.executor), settings, registry);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private Run submit(String target) {
		return this.store.submit(request(target)).block(TIMEOUT);
	}

	private static RunRequest request(String target) {
		return RunRequest.of("test", target, "s1", json("{}"));
	}

	private Run awaitStatus(String runId, RunStatus status) {
		eventually(() -> this.store.find(runId).block(TIMEOUT).status() == status);
		return this.store.find(runId).block(TIMEOUT);
	}

	private List<RunEvent> events(String runId) {
		return this.store.read(runId, 0, 100).collectList().block(TIMEOUT);
	}

	private static void eventually(BooleanSupplier condition) {
		long end = System.nanoTime() + TIMEOUT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > end) {
				throw new AssertionError("Condition not met within " + TIMEOUT);
			}
			sleep(10);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static JsonNode json(String json) {
		return AgentJson.mapper().readTree(json);
	}

	/**
	 * Runs by target, as scripted.
	 */
	static final class ScriptedExecutor implements RunExecutor {

		private final Map<String, Function<Run, Flux<RunEmission>>> scripts = new ConcurrentHashMap<>();

		void script(String target, Function<Run, Flux<RunEmission>> script) {
			this.scripts.put(target, script);
		}

		@Override
		public String kind() {
			return "test";
		}

		@Override
		public List<String> targets() {
			return List.copyOf(this.scripts.keySet());
		}

		@Override
		public Flux<RunEmission> execute(Run run) {
			return this.scripts.get(run.target()).apply(run);
		}

	}

}
