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

import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.redis.RedisTestSupport;
import dev.agcore.run.MutableClock;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunStore.ClaimSettings;
import dev.agcore.run.RunStore.Lease;
import dev.agcore.run.RunStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisRunStore} against the local Redis: the
 * {@link RunStoreContractTests store contract}, how runs sit in the queue stream, and two
 * store instances on two connections (two application instances) sharing one queue.
 * Each test works under its own key prefix, so leftovers of one never reach another.
 */
class RedisRunStoreTests extends RunStoreContractTests {

	@Override
	protected boolean countsQueued() {
		// its queue is a stream whose entries are not removed when claimed: no cheap count
		return false;
	}


	private static final Instant START = MutableClock.now().instant();

	private static RedisTestSupport redis;

	private static ReactiveStringRedisTemplate instanceA;

	private static ReactiveStringRedisTemplate instanceB;

	// a field, not a @BeforeEach: the contract creates the store before this class's @BeforeEach methods run
	private final String prefix = redis.keyPrefix() + UUID.randomUUID().toString().substring(0, 8) + ":";

	@BeforeAll
	static void connect() {
		redis = new RedisTestSupport("agcore-test:runs:" + ProcessHandle.current().pid() + ":");
		instanceA = redis.template();
		instanceB = redis.template();
	}

	@AfterAll
	static void disconnect() {
		if (redis != null) {
			redis.close();
		}
	}

	/** The store under test, on instance A's connection. */
	@Override
	protected RunStore createStore(MutableClock clock) {
		return new RedisRunStore(instanceA, this.prefix, clock);
	}

	/** Another instance of the application: its own connection, the same keys. */
	private RunStore otherInstance(Clock clock) {
		return new RedisRunStore(instanceB, this.prefix, clock);
	}

	private static ClaimSettings settings(int max, int maxPerSession, int maxAttempts) {
		return new ClaimSettings(max, LEASE, maxPerSession, maxAttempts);
	}

	private static List<Run> claim(RunStore store, String owner, ClaimSettings settings) {
		return store.claim(owner, settings).collectList().block(TIMEOUT);
	}

	@Test
	void keepsARunInTheQueueStreamUntilItEndsAndLeavesNothingPending() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		store.submit(request("s")).block(TIMEOUT);
		assertThat(instanceA.hasKey(this.prefix + "{runs}:run:" + run.id()).block(TIMEOUT)).isTrue();
		assertThat(instanceA.opsForStream().size(this.prefix + "{runs}:queue").block(TIMEOUT)).isEqualTo(2);

		assertThat(claim(store, "w", settings(1, 1, 3))).hasSize(1);
		assertThat(store.finish(run.id(), "w", RunOutcome.completed(null)).block(TIMEOUT)).isTrue();

		// acknowledged and deleted: only the other run's entry is left, pending for nobody
		assertThat(instanceA.opsForStream().size(this.prefix + "{runs}:queue").block(TIMEOUT)).isEqualTo(1);
		assertThat(instanceA.opsForStream()
			.pending(this.prefix + "{runs}:queue", "workers")
			.block(TIMEOUT)
			.getTotalPendingMessages()).isZero();
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
				.onBackpressureDrop()
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
				.onBackpressureDrop()
				.concatMap((tick) -> a.submit(request("s")))
				.then(Mono.empty()))
			.next()
			.block(TIMEOUT);

		assertThat(a.find(signalled).block(TIMEOUT)).isNotNull();
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
