package dev.agcore.run.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStateException;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunStore.ClaimSettings;
import dev.agcore.run.RunStore.Lease;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisRunStore} against the local Redis: every operation, and two
 * store instances on two connections (two application instances) sharing one queue.
 * Each test works under its own key prefix, so leftovers of one never reach another.
 */
class RedisRunStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Instant START = Instant.parse("2026-11-26T10:00:00Z");

	private static RunRedisSupport redis;

	private static ReactiveStringRedisTemplate instanceA;

	private static ReactiveStringRedisTemplate instanceB;

	private String prefix = "";

	private final MovableClock clock = new MovableClock(START);

	@BeforeAll
	static void connect() {
		redis = new RunRedisSupport("agcore-test:runs:" + ProcessHandle.current().pid() + ":");
		instanceA = redis.template();
		instanceB = redis.template();
	}

	@AfterAll
	static void disconnect() {
		if (redis != null) {
			redis.close();
		}
	}

	@BeforeEach
	void newPrefix() {
		this.prefix = redis.keyPrefix() + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

	/** The store under test, on instance A's connection. */
	RunStore createStore(Clock clock) {
		return new RedisRunStore(instanceA, this.prefix, clock);
	}

	/** Another instance of the application: its own connection, the same keys. */
	private RunStore otherInstance(Clock clock) {
		return new RedisRunStore(instanceB, this.prefix, clock);
	}

	private static RunRequest request(String session) {
		return RunRequest.of("agent", "assistant", session, json("{\"message\":\"hi\"}"));
	}

	private static ClaimSettings settings(int max, int maxPerSession, int maxAttempts) {
		return new ClaimSettings(max, LEASE, maxPerSession, maxAttempts);
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	private static List<Run> claim(RunStore store, String owner, ClaimSettings settings) {
		return store.claim(owner, settings).collectList().block(TIMEOUT);
	}

	@Test
	void submitsFindsAndListsRunsOfASessionNewestFirst() {
		RunStore store = createStore(this.clock);
		RunRequest request = request("s1").withUserId("ann")
			.withDeadline(Duration.ofMinutes(2))
			.withNotBefore(START.minusSeconds(1));
		Run first = store.submit(request).block(TIMEOUT);
		this.clock.advance(Duration.ofMillis(1500));
		Run second = store.submit(request("s1")).block(TIMEOUT);
		store.submit(request("s2")).block(TIMEOUT);

		assertThat(first.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(first.request()).isEqualTo(request);
		assertThat(first.createdAt()).isEqualTo(START);
		assertThat(first.attempts()).isZero();
		assertThat(store.find(first.id()).block(TIMEOUT)).isEqualTo(first);
		assertThat(store.find("unknown").blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.list("s1", 0, 10).map(Run::id).collectList().block(TIMEOUT)).containsExactly(second.id(),
				first.id());
		assertThat(store.list("s1", 1, 10).map(Run::id).collectList().block(TIMEOUT)).containsExactly(first.id());
		assertThat(store.list("s1", 0, 1).map(Run::id).collectList().block(TIMEOUT)).containsExactly(second.id());
		assertThat(store.list("none", 0, 10).collectList().block(TIMEOUT)).isEmpty();
		assertThat(instanceA.hasKey(this.prefix + "{runs}:run:" + first.id()).block(TIMEOUT)).isTrue();
		assertThat(instanceA.opsForStream().size(this.prefix + "{runs}:queue").block(TIMEOUT)).isEqualTo(3);
	}

	@Test
	void submittingTwiceWithAnIdempotencyKeyQueuesOneRun() {
		RunStore store = createStore(this.clock);
		RunStore other = otherInstance(this.clock);
		RunRequest request = request("s").withIdempotencyKey("order-42");

		List<Run> runs = Flux.merge(store.submit(request), other.submit(request), store.submit(request))
			.collectList()
			.block(TIMEOUT);

		assertThat(runs).extracting(Run::id).containsOnly(runs.get(0).id());
		assertThat(store.list("s", 0, 10).collectList().block(TIMEOUT)).hasSize(1);
		assertThat(claim(store, "w", settings(10, 10, 3))).hasSize(1);
	}

	@Test
	void claimsHeartbeatsAndFinishesARun() {
		RunStore store = createStore(this.clock);
		Run submitted = store.submit(request("s")).block(TIMEOUT);

		List<Run> claimed = claim(store, "worker-1", settings(5, 1, 3));
		assertThat(claimed).singleElement().satisfies((run) -> {
			assertThat(run.id()).isEqualTo(submitted.id());
			assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
			assertThat(run.owner()).isEqualTo("worker-1");
			assertThat(run.attempts()).isEqualTo(1);
			assertThat(run.startedAt()).isEqualTo(START);
			assertThat(run.leaseExpiresAt()).isEqualTo(START.plus(LEASE));
		});
		assertThat(claim(store, "worker-2", settings(5, 1, 3))).isEmpty();

		this.clock.advance(Duration.ofSeconds(10));
		assertThat(store.heartbeat(submitted.id(), "worker-1", LEASE).block(TIMEOUT)).isEqualTo(Lease.HELD);
		assertThat(store.heartbeat(submitted.id(), "worker-2", LEASE).block(TIMEOUT)).isEqualTo(Lease.LOST);
		assertThat(store.find(submitted.id()).block(TIMEOUT).leaseExpiresAt())
			.isEqualTo(START.plusSeconds(10).plus(LEASE));

		assertThat(store.finish(submitted.id(), "worker-2", RunOutcome.completed(null)).block(TIMEOUT)).isFalse();
		assertThat(store.finish(submitted.id(), "worker-1", RunOutcome.completed(json("{\"answer\":42}")))
			.block(TIMEOUT)).isTrue();
		Run finished = store.find(submitted.id()).block(TIMEOUT);
		assertThat(finished.status()).isEqualTo(RunStatus.COMPLETED);
		assertThat(finished.result()).isEqualTo(json("{\"answer\":42}"));
		assertThat(finished.finishedAt()).isEqualTo(START.plusSeconds(10));
		assertThat(finished.owner()).isNull();
		assertThat(finished.leaseExpiresAt()).isNull();
		assertThat(store.heartbeat(submitted.id(), "worker-1", LEASE).block(TIMEOUT)).isEqualTo(Lease.LOST);
		assertThat(store.finish(submitted.id(), "worker-1", RunOutcome.cancelled()).block(TIMEOUT)).isFalse();
		// acknowledged and deleted: nothing left pending in the consumer group
		assertThat(instanceA.opsForStream().size(this.prefix + "{runs}:queue").block(TIMEOUT)).isZero();
		assertThat(instanceA.opsForStream().pending(this.prefix + "{runs}:queue", "workers").block(TIMEOUT).getTotalPendingMessages())
			.isZero();
	}

	@Test
	void failedRunKeepsItsError() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		claim(store, "w", settings(1, 1, 3));

		store.finish(run.id(), "w", RunOutcome.failed("model_error", "The model failed")).block(TIMEOUT);

		Run failed = store.find(run.id()).block(TIMEOUT);
		assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
		assertThat(failed.error()).isEqualTo(new Run.RunError("model_error", "The model failed"));
	}

	@Test
	void cancelsQueuedRunsAtOnceAndRunningRunsThroughTheirHeartbeat() {
		RunStore store = createStore(this.clock);
		Run queued = store.submit(request("s1")).block(TIMEOUT);
		Run cancelled = store.cancel(queued.id()).block(TIMEOUT);
		assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
		assertThat(cancelled.finishedAt()).isEqualTo(START);
		assertThat(store.read(queued.id(), 0, 10).map(RunEvent::type).collectList().block(TIMEOUT))
			.containsExactly(RunEvent.CANCELLED);
		assertThat(claim(store, "w", settings(5, 5, 3))).isEmpty();
		assertThat(store.cancel(queued.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.CANCELLED);

		Run running = store.submit(request("s2")).block(TIMEOUT);
		claim(store, "w", settings(5, 5, 3));
		Run requested = store.cancel(running.id()).block(TIMEOUT);
		assertThat(requested.status()).isEqualTo(RunStatus.RUNNING);
		assertThat(requested.cancelRequested()).isTrue();
		assertThat(store.heartbeat(running.id(), "w", LEASE).block(TIMEOUT)).isEqualTo(Lease.CANCEL_REQUESTED);
		assertThat(store.finish(running.id(), "w", RunOutcome.cancelled()).block(TIMEOUT)).isTrue();
		assertThat(store.find(running.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.CANCELLED);

		assertThatExceptionOfType(RunNotFoundException.class)
			.isThrownBy(() -> store.cancel("unknown").block(TIMEOUT));
	}

	@Test
	void resumesAnInterruptedRunAndRefusesOthers() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		claim(store, "w", settings(1, 1, 3));
		assertThatExceptionOfType(RunStateException.class)
			.isThrownBy(() -> store.resume(run.id(), json("{}")).block(TIMEOUT))
			.withMessageContaining("running");

		store.finish(run.id(), "w", RunOutcome.interrupted(json("{\"question\":\"ok?\"}"))).block(TIMEOUT);
		Run interrupted = store.find(run.id()).block(TIMEOUT);
		assertThat(interrupted.status()).isEqualTo(RunStatus.INTERRUPTED);
		assertThat(interrupted.result()).isEqualTo(json("{\"question\":\"ok?\"}"));
		assertThat(interrupted.finishedAt()).isNull();

		Run resumed = store.resume(run.id(), json("{\"approved\":true}")).block(TIMEOUT);
		assertThat(resumed.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(resumed.resume()).isEqualTo(json("{\"approved\":true}"));
		assertThat(resumed.result()).isNull();
		assertThat(claim(store, "w2", settings(1, 1, 3))).singleElement().satisfies((again) -> {
			assertThat(again.attempts()).isEqualTo(2);
			assertThat(again.resume()).isEqualTo(json("{\"approved\":true}"));
		});
		assertThatExceptionOfType(RunNotFoundException.class)
			.isThrownBy(() -> store.resume("unknown", json("{}")).block(TIMEOUT));
	}

	@Test
	void releasedRunIsClaimedByAnotherWorkerWithItsAttemptsCounted() {
		RunStore store = createStore(this.clock);
		RunStore other = otherInstance(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		claim(store, "a", settings(1, 1, 3));

		assertThat(store.release(run.id(), "b").block(TIMEOUT)).isFalse();
		assertThat(store.release(run.id(), "a").block(TIMEOUT)).isTrue();
		assertThat(store.find(run.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.QUEUED);

		assertThat(claim(other, "b", settings(1, 1, 3))).singleElement()
			.satisfies((again) -> assertThat(again.attempts()).isEqualTo(2));
		assertThat(store.finish(run.id(), "a", RunOutcome.completed(null)).block(TIMEOUT)).isFalse();
	}

	@Test
	void runWaitsForItsNotBefore() {
		RunStore store = createStore(this.clock);
		Run later = store.submit(request("s").withNotBefore(START.plus(Duration.ofHours(1)))).block(TIMEOUT);

		assertThat(claim(store, "w", settings(5, 5, 3))).isEmpty();
		this.clock.advance(Duration.ofMinutes(59));
		assertThat(claim(store, "w", settings(5, 5, 3))).isEmpty();
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(claim(store, "w", settings(5, 5, 3))).extracting(Run::id).containsExactly(later.id());
	}

	@Test
	void anotherInstanceTakesOverARunWhoseLeaseExpiredUntilItsAttemptsAreUsedUp() {
		RunStore a = createStore(this.clock);
		RunStore b = otherInstance(this.clock);
		Run run = a.submit(request("s")).block(TIMEOUT);
		assertThat(claim(a, "instance-a", settings(1, 1, 2))).hasSize(1);

		this.clock.advance(LEASE.minusSeconds(1));
		assertThat(claim(b, "instance-b", settings(1, 1, 2))).isEmpty();
		this.clock.advance(Duration.ofSeconds(1));
		List<Run> takenOver = claim(b, "instance-b", settings(1, 1, 2));
		assertThat(takenOver).singleElement().satisfies((again) -> {
			assertThat(again.id()).isEqualTo(run.id());
			assertThat(again.owner()).isEqualTo("instance-b");
			assertThat(again.attempts()).isEqualTo(2);
			assertThat(again.startedAt()).isEqualTo(START);
		});
		assertThat(a.heartbeat(run.id(), "instance-a", LEASE).block(TIMEOUT)).isEqualTo(Lease.LOST);
		assertThat(a.finish(run.id(), "instance-a", RunOutcome.completed(null)).block(TIMEOUT)).isFalse();
		// the queue entry moved to instance-b's pending list
		assertThat(instanceA.opsForStream()
			.pending(this.prefix + "{runs}:queue", "workers")
			.block(TIMEOUT)
			.getPendingMessagesPerConsumer()).containsOnlyKeys("instance-b");

		this.clock.advance(LEASE);
		assertThat(claim(a, "instance-a", settings(1, 1, 2))).isEmpty();
		Run failed = b.find(run.id()).block(TIMEOUT);
		assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
		assertThat(failed.error().code()).isEqualTo("lease_expired");
		assertThat(b.read(run.id(), 0, 10).collectList().block(TIMEOUT)).singleElement().satisfies((event) -> {
			assertThat(event.type()).isEqualTo(RunEvent.FAILED);
			assertThat(event.data().path("error").asString()).isEqualTo("lease_expired");
		});
		assertThat(b.heartbeat(run.id(), "instance-b", LEASE).block(TIMEOUT)).isEqualTo(Lease.LOST);
	}

	@Test
	void runWithCancellingRequestedIsCancelledWhenItsLeaseExpires() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		claim(store, "dead", settings(1, 1, 3));
		store.cancel(run.id()).block(TIMEOUT);
		this.clock.advance(LEASE);

		assertThat(claim(store, "alive", settings(1, 1, 3))).isEmpty();
		assertThat(store.find(run.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.CANCELLED);
	}

	@Test
	void limitsRunningRunsPerSessionAcrossInstancesWithoutLosingTheOthers() {
		RunStore a = createStore(this.clock);
		RunStore b = otherInstance(this.clock);
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			ids.add(a.submit(request("busy")).block(TIMEOUT).id());
		}
		Run elsewhere = b.submit(request("other")).block(TIMEOUT);

		assertThat(claim(a, "a", settings(10, 1, 3))).extracting(Run::id).containsExactly(ids.get(0), elsewhere.id());
		assertThat(claim(b, "b", settings(10, 1, 3))).isEmpty();
		assertThat(a.find(ids.get(1)).block(TIMEOUT).status()).isEqualTo(RunStatus.QUEUED);

		a.finish(ids.get(0), "a", RunOutcome.completed(null)).block(TIMEOUT);
		assertThat(claim(b, "b", settings(10, 1, 3))).extracting(Run::id).containsExactly(ids.get(1));
		assertThat(claim(a, "a", settings(10, 1, 3))).isEmpty();

		// cancelling a waiting run loses nothing else
		a.cancel(ids.get(2)).block(TIMEOUT);
		b.finish(ids.get(1), "b", RunOutcome.completed(null)).block(TIMEOUT);
		assertThat(claim(a, "a", settings(10, 1, 3))).isEmpty();
		assertThat(a.find(ids.get(2)).block(TIMEOUT).status()).isEqualTo(RunStatus.CANCELLED);
	}

	@Test
	void twoInstancesClaimingAtOnceClaimEachRunExactlyOnce() throws Exception {
		RunStore a = createStore(this.clock);
		RunStore b = otherInstance(this.clock);
		Set<String> submitted = new HashSet<>();
		Flux.range(0, 200)
			.flatMap((i) -> ((i % 2 == 0) ? a : b).submit(request("session-" + (i % 20))), 16)
			.doOnNext((run) -> submitted.add(run.id()))
			.then()
			.block(TIMEOUT);
		assertThat(submitted).hasSize(200);

		List<String> claimed = Collections.synchronizedList(new ArrayList<>());
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Callable<Void>> workers = new ArrayList<>();
			for (int w = 0; w < 4; w++) {
				RunStore store = (w % 2 == 0) ? a : b;
				String owner = "worker-" + w;
				workers.add(() -> {
					int idle = 0;
					while (idle < 3) {
						List<Run> runs = claim(store, owner, settings(7, 3, 3));
						idle = runs.isEmpty() ? idle + 1 : 0;
						for (Run run : runs) {
							claimed.add(run.id());
							assertThat(store.finish(run.id(), owner, RunOutcome.completed(null)).block(TIMEOUT))
								.isTrue();
						}
					}
					return null;
				});
			}
			for (Future<Void> done : executor.invokeAll(workers)) {
				done.get();
			}
		}
		finally {
			executor.shutdownNow();
		}

		assertThat(claimed).hasSize(200).doesNotHaveDuplicates();
		assertThat(new HashSet<>(claimed)).isEqualTo(submitted);
	}

	@Test
	void numbersConcurrentEventsWithoutGapsAndSignalsThemOnTheOtherInstance() {
		RunStore a = createStore(this.clock);
		RunStore b = otherInstance(this.clock);
		Run run = a.submit(request("s")).block(TIMEOUT);

		// signals may be lost while B subscribes: append until one arrives
		String signalled = b.appended()
			.filter(run.id()::equals)
			.next()
			.mergeWith(Flux.interval(Duration.ofMillis(100))
				.concatMap((tick) -> a.append(run.id(), "ping", json("{}")))
				.then(Mono.empty()))
			.next()
			.block(TIMEOUT);
		assertThat(signalled).isEqualTo(run.id());
		long pings = a.read(run.id(), 0, 1000).count().block(TIMEOUT);

		RunStore otherWriter = otherInstance(this.clock);
		Flux.range(0, 100)
			.flatMap((i) -> ((i % 2 == 0) ? a : otherWriter).append(run.id(), "text",
					json("{\"i\":" + i + "}")), 20)
			.then()
			.block(TIMEOUT);

		List<RunEvent> events = b.read(run.id(), pings, 1000).collectList().block(TIMEOUT);
		assertThat(events).extracting(RunEvent::sequence)
			.containsExactlyElementsOf(IntStream.rangeClosed(1, 100).mapToObj((i) -> pings + i).toList());
		assertThat(events).extracting((event) -> event.data().path("i").asInt())
			.containsExactlyInAnyOrderElementsOf(IntStream.range(0, 100).boxed().toList());
		assertThat(events).allSatisfy((event) -> assertThat(event.createdAt()).isEqualTo(START));
		assertThat(b.read(run.id(), pings + 98, 1).map(RunEvent::sequence).collectList().block(TIMEOUT))
			.containsExactly(pings + 99);
		assertThat(b.read("unknown", 0, 10).collectList().block(TIMEOUT)).isEmpty();
		assertThatExceptionOfType(RunNotFoundException.class)
			.isThrownBy(() -> a.append("unknown", "text", json("{}")).block(TIMEOUT));
	}

	@Test
	void signalsSubmittedRunsToOtherInstances() {
		RunStore a = createStore(this.clock);
		RunStore b = otherInstance(this.clock);
		String signalled = b.submitted()
			.next()
			.mergeWith(Flux.interval(Duration.ofMillis(100))
				.concatMap((tick) -> a.submit(request("s")))
				.then(Mono.empty()))
			.next()
			.block(TIMEOUT);

		assertThat(a.find(signalled).block(TIMEOUT)).isNotNull();
	}

	@Test
	void purgesRunsFinishedBeforeTheRetentionWithTheirEvents() {
		RunStore store = createStore(this.clock);
		Run old = store.submit(request("s").withIdempotencyKey("old")).block(TIMEOUT);
		store.append(old.id(), "text", json("{}")).block(TIMEOUT);
		store.cancel(old.id()).block(TIMEOUT);
		this.clock.advance(Duration.ofHours(2));
		Run recent = store.submit(request("s")).block(TIMEOUT);
		store.cancel(recent.id()).block(TIMEOUT);
		Run queued = store.submit(request("s")).block(TIMEOUT);

		assertThat(store.purge(Duration.ofHours(1)).block(TIMEOUT)).isEqualTo(1);

		assertThat(store.find(old.id()).blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.read(old.id(), 0, 10).collectList().block(TIMEOUT)).isEmpty();
		assertThat(store.list("s", 0, 10).map(Run::id).collectList().block(TIMEOUT)).containsExactly(queued.id(),
				recent.id());
		assertThat(instanceA.hasKey(this.prefix + "{runs}:idempotency:old").block(TIMEOUT)).isFalse();
		assertThat(store.submit(request("s").withIdempotencyKey("old")).block(TIMEOUT).id()).isNotEqualTo(old.id());
	}

	@Test
	void unreachableRedisFailsWithMemoryUnavailable() {
		RunStore store = new RedisRunStore(redis.template(1), this.prefix, this.clock);

		assertThatExceptionOfType(MemoryUnavailableException.class)
			.isThrownBy(() -> store.submit(request("s")).block(TIMEOUT))
			.withMessageContaining("Redis run store");
		assertThatExceptionOfType(MemoryUnavailableException.class)
			.isThrownBy(() -> store.read("r", 0, 10).collectList().block(TIMEOUT));
	}

}
