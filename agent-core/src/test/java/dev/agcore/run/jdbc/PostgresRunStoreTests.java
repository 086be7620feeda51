package dev.agcore.run.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ServiceAvailability;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The PostgreSQL run store (127.0.0.1:5432, database {@code test}) in tables of this
 * class's own prefix, dropped afterwards: every method of the SPI, and two instances on
 * two connection pools claiming, taking over expired leases, sharing the per-session
 * limit and signalling each other's events. Skipped when PostgreSQL is not running, failed
 * on CI.
 */
class PostgresRunStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static String prefix;

	private static HikariDataSource dataSourceA;

	private static HikariDataSource dataSourceB;

	private final RunTestDatabases.MutableClock clock = new RunTestDatabases.MutableClock();

	private final List<JdbcRunStore> stores = new ArrayList<>();

	@BeforeAll
	static void createTables() {
		ServiceAvailability.require("PostgreSQL", RunTestDatabases.HOST, RunTestDatabases.POSTGRES_PORT);
		prefix = RunTestDatabases.prefix("runs");
		dataSourceA = RunTestDatabases.postgres();
		dataSourceB = RunTestDatabases.postgres();
		JdbcRunSchema.create(dataSourceA, "postgresql", prefix);
		// a second run creates nothing and fails nothing
		JdbcRunSchema.create(dataSourceA, "postgresql", prefix);
	}

	@AfterAll
	static void dropTables() {
		if (dataSourceA != null) {
			JdbcRunSchema.drop(dataSourceA, prefix);
			dataSourceA.close();
			dataSourceB.close();
		}
	}

	@BeforeEach
	void emptyTables() {
		JdbcTemplate jdbc = new JdbcTemplate(dataSourceA);
		jdbc.update("DELETE FROM " + prefix + "run_events");
		jdbc.update("DELETE FROM " + prefix + "runs");
	}

	@AfterEach
	void closeStores() {
		this.stores.forEach(JdbcRunStore::close);
	}

	/** The store under test, on the first pool, with the given clock. */
	protected RunStore createStore(Clock clock) {
		return store(dataSourceA, clock);
	}

	private JdbcRunStore store(HikariDataSource dataSource, Clock clock) {
		JdbcRunStore store = JdbcRunStore.builder(dataSource).tablePrefix(prefix).clock(clock).build();
		this.stores.add(store);
		return store;
	}

	private static JsonNode json(String field, String value) {
		return JsonNodeFactory.instance.objectNode().put(field, value);
	}

	private static RunRequest request(String session) {
		return RunRequest.of("agent", "assistant", session, json("message", "hi"));
	}

	private static ClaimSettings settings(int max) {
		return new ClaimSettings(max, LEASE, 100, 3);
	}

	@Test
	void submittedRunIsQueuedAndReadBackWithEveryField() {
		RunStore store = createStore(this.clock);
		RunRequest request = request("s1").withUserId("ann")
			.withDeadline(Duration.ofMinutes(5))
			.withNotBefore(this.clock.instant().plusSeconds(60));
		Run run = store.submit(request).block(TIMEOUT);

		assertThat(run.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(run.attempts()).isZero();
		assertThat(run.createdAt()).isEqualTo(this.clock.instant());
		Run found = store.find(run.id()).block(TIMEOUT);
		assertThat(found).isEqualTo(run);
		assertThat(found.request()).isEqualTo(request);
		assertThat(store.find("unknown").blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void submittingTwiceWithOneIdempotencyKeyQueuesOneRunEvenConcurrently() throws Exception {
		RunStore store = createStore(this.clock);
		RunRequest request = request("s1").withIdempotencyKey("key-1");
		ExecutorService executor = Executors.newFixedThreadPool(6);
		try {
			List<Future<Run>> submits = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				submits.add(executor.submit(() -> store.submit(request).block(TIMEOUT)));
			}
			Set<String> ids = new HashSet<>();
			for (Future<Run> submit : submits) {
				ids.add(submit.get(30, TimeUnit.SECONDS).id());
			}
			assertThat(ids).hasSize(1);
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(store.list("s1", 0, 10).collectList().block(TIMEOUT)).hasSize(1);
	}

	@Test
	void listGivesASessionsRunsNewestFirst() {
		RunStore store = createStore(this.clock);
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			ids.add(store.submit(request("list")).block(TIMEOUT).id());
			this.clock.advance(Duration.ofSeconds(1));
		}
		store.submit(request("other")).block(TIMEOUT);

		Collections.reverse(ids);
		assertThat(store.list("list", 0, 10).map(Run::id).collectList().block(TIMEOUT)).isEqualTo(ids);
		assertThat(store.list("list", 1, 2).map(Run::id).collectList().block(TIMEOUT)).isEqualTo(ids.subList(1, 3));
	}

	@Test
	void claimTakesDueRunsOldestFirstAndLeavesLaterOnes() {
		RunStore store = createStore(this.clock);
		Run first = store.submit(request("a")).block(TIMEOUT);
		this.clock.advance(Duration.ofSeconds(1));
		Run later = store.submit(request("b").withNotBefore(this.clock.instant().plusSeconds(60))).block(TIMEOUT);
		Run second = store.submit(request("c")).block(TIMEOUT);

		List<Run> claimed = store.claim("w1", settings(10)).collectList().block(TIMEOUT);

		assertThat(claimed).extracting(Run::id).containsExactly(first.id(), second.id());
		Run run = claimed.get(0);
		assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
		assertThat(run.owner()).isEqualTo("w1");
		assertThat(run.attempts()).isEqualTo(1);
		assertThat(run.leaseExpiresAt()).isEqualTo(this.clock.instant().plus(LEASE));
		assertThat(run.startedAt()).isEqualTo(this.clock.instant());
		assertThat(store.claim("w2", settings(10)).collectList().block(TIMEOUT)).isEmpty();
		for (Run done : claimed) {
			store.finish(done.id(), "w1", RunOutcome.completed(null)).block(TIMEOUT);
		}
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(store.claim("w2", settings(10)).map(Run::id).collectList().block(TIMEOUT))
			.containsExactly(later.id());
	}

	@Test
	void claimHonoursMaxAndMaxPerSession() {
		RunStore store = createStore(this.clock);
		for (int i = 0; i < 3; i++) {
			store.submit(request("busy")).block(TIMEOUT);
		}
		store.submit(request("quiet")).block(TIMEOUT);

		List<Run> claimed = store.claim("w1", new ClaimSettings(10, LEASE, 2, 3)).collectList().block(TIMEOUT);
		assertThat(claimed).extracting(Run::sessionId).containsExactlyInAnyOrder("busy", "busy", "quiet");
		assertThat(store.claim("w1", new ClaimSettings(10, LEASE, 2, 3)).collectList().block(TIMEOUT)).isEmpty();
		assertThat(store.claim("w1", new ClaimSettings(1, LEASE, 3, 3)).collectList().block(TIMEOUT)).hasSize(1);
	}

	@Test
	void heartbeatRenewsTellsOfCancellingAndOfALostRun() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		store.claim("w1", settings(1)).blockLast(TIMEOUT);

		this.clock.advance(Duration.ofSeconds(20));
		assertThat(store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT)).isEqualTo(Lease.HELD);
		assertThat(store.find(run.id()).block(TIMEOUT).leaseExpiresAt()).isEqualTo(this.clock.instant().plus(LEASE));
		assertThat(store.heartbeat(run.id(), "w2", LEASE).block(TIMEOUT)).isEqualTo(Lease.LOST);

		Run cancelling = store.cancel(run.id()).block(TIMEOUT);
		assertThat(cancelling.status()).isEqualTo(RunStatus.RUNNING);
		assertThat(cancelling.cancelRequested()).isTrue();
		assertThat(store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT)).isEqualTo(Lease.CANCEL_REQUESTED);

		assertThat(store.finish(run.id(), "w1", RunOutcome.cancelled()).block(TIMEOUT)).isTrue();
		assertThat(store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT)).isEqualTo(Lease.LOST);
	}

	@Test
	void finishWritesTheOutcomeOnlyForTheOwner() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		store.claim("w1", settings(1)).blockLast(TIMEOUT);

		assertThat(store.finish(run.id(), "w2", RunOutcome.completed(json("answer", "no"))).block(TIMEOUT)).isFalse();
		this.clock.advance(Duration.ofSeconds(3));
		assertThat(store.finish(run.id(), "w1", RunOutcome.failed("model_error", "boom")).block(TIMEOUT)).isTrue();

		Run failed = store.find(run.id()).block(TIMEOUT);
		assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
		assertThat(failed.error()).isEqualTo(new Run.RunError("model_error", "boom"));
		assertThat(failed.owner()).isNull();
		assertThat(failed.leaseExpiresAt()).isNull();
		assertThat(failed.finishedAt()).isEqualTo(this.clock.instant());
		assertThat(store.finish(run.id(), "w1", RunOutcome.completed(null)).block(TIMEOUT)).isFalse();
	}

	@Test
	void releaseGivesTheRunBackKeepingItsAttempts() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		store.claim("w1", settings(1)).blockLast(TIMEOUT);

		assertThat(store.release(run.id(), "w2").block(TIMEOUT)).isFalse();
		assertThat(store.release(run.id(), "w1").block(TIMEOUT)).isTrue();
		assertThat(store.find(run.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.QUEUED);
		Run again = store.claim("w2", settings(1)).blockLast(TIMEOUT);
		assertThat(again.owner()).isEqualTo("w2");
		assertThat(again.attempts()).isEqualTo(2);
	}

	@Test
	void cancelEndsAQueuedRunAtOnceAndLeavesAFinalOne() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);

		Run cancelled = store.cancel(run.id()).block(TIMEOUT);
		assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
		assertThat(cancelled.finishedAt()).isNotNull();
		assertThat(store.read(run.id(), 0, 10).map(RunEvent::type).collectList().block(TIMEOUT))
			.containsExactly(RunEvent.CANCELLED);
		assertThat(store.cancel(run.id()).block(TIMEOUT)).isEqualTo(cancelled);
		assertThat(store.read(run.id(), 0, 10).collectList().block(TIMEOUT)).hasSize(1);
		assertThatExceptionOfType(RunNotFoundException.class)
			.isThrownBy(() -> store.cancel("unknown").block(TIMEOUT));
	}

	@Test
	void resumeQueuesAnInterruptedRunWithTheHumansInput() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		assertThatExceptionOfType(RunStateException.class)
			.isThrownBy(() -> store.resume(run.id(), json("approve", "yes")).block(TIMEOUT))
			.withMessageContaining("queued");
		store.claim("w1", settings(1)).blockLast(TIMEOUT);
		store.finish(run.id(), "w1", RunOutcome.interrupted(json("question", "ok?"))).block(TIMEOUT);
		Run interrupted = store.find(run.id()).block(TIMEOUT);
		assertThat(interrupted.status()).isEqualTo(RunStatus.INTERRUPTED);
		assertThat(interrupted.result()).isEqualTo(json("question", "ok?"));
		assertThat(interrupted.finishedAt()).isNull();

		Run resumed = store.resume(run.id(), json("approve", "yes")).block(TIMEOUT);

		assertThat(resumed.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(resumed.resume()).isEqualTo(json("approve", "yes"));
		Run claimed = store.claim("w2", settings(1)).blockLast(TIMEOUT);
		assertThat(claimed.id()).isEqualTo(run.id());
		assertThat(claimed.resume()).isEqualTo(json("approve", "yes"));
		assertThatExceptionOfType(RunNotFoundException.class)
			.isThrownBy(() -> store.resume("unknown", json("a", "b")).block(TIMEOUT));
	}

	@Test
	void appendNumbersEventsAndReadGivesThoseAfterASequence() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		for (int i = 1; i <= 5; i++) {
			RunEvent event = store.append(run.id(), "text", json("n", "" + i)).block(TIMEOUT);
			assertThat(event.sequence()).isEqualTo(i);
		}

		assertThat(store.read(run.id(), 2, 2).collectList().block(TIMEOUT)).extracting(RunEvent::sequence)
			.containsExactly(3L, 4L);
		RunEvent last = store.read(run.id(), 4, 10).blockLast(TIMEOUT);
		assertThat(last.data()).isEqualTo(json("n", "5"));
		assertThat(last.createdAt()).isEqualTo(this.clock.instant());
		assertThatExceptionOfType(RunNotFoundException.class)
			.isThrownBy(() -> store.append("unknown", "text", json("a", "b")).block(TIMEOUT));
	}

	@Test
	void purgeRemovesFinishedRunsOlderThanTheRetentionWithTheirEvents() {
		RunStore store = createStore(this.clock);
		Run old = store.submit(request("s")).block(TIMEOUT);
		Run waiting = store.submit(request("s")).block(TIMEOUT);
		store.cancel(old.id()).block(TIMEOUT);
		this.clock.advance(Duration.ofHours(2));
		Run recent = store.submit(request("s")).block(TIMEOUT);
		store.cancel(recent.id()).block(TIMEOUT);

		assertThat(store.purge(Duration.ofHours(1)).block(TIMEOUT)).isEqualTo(1L);
		assertThat(store.find(old.id()).blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.read(old.id(), 0, 10).collectList().block(TIMEOUT)).isEmpty();
		assertThat(store.find(waiting.id()).blockOptional(TIMEOUT)).isPresent();
		assertThat(store.find(recent.id()).blockOptional(TIMEOUT)).isPresent();
	}

	@Test
	void aRunWhoseLeaseExpiredTooOftenFailsWithLeaseExpired() {
		RunStore store = createStore(this.clock);
		Run run = store.submit(request("s")).block(TIMEOUT);
		ClaimSettings twice = new ClaimSettings(1, LEASE, 10, 2);
		assertThat(store.claim("w1", twice).blockLast(TIMEOUT).attempts()).isEqualTo(1);
		this.clock.advance(LEASE);
		assertThat(store.claim("w2", twice).blockLast(TIMEOUT).attempts()).isEqualTo(2);
		this.clock.advance(LEASE);

		assertThat(store.claim("w3", twice).collectList().block(TIMEOUT)).isEmpty();

		Run failed = store.find(run.id()).block(TIMEOUT);
		assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
		assertThat(failed.error().code()).isEqualTo("lease_expired");
		RunEvent event = store.read(run.id(), 0, 10).blockLast(TIMEOUT);
		assertThat(event.type()).isEqualTo(RunEvent.FAILED);
		assertThat(event.data().get("error").asString()).isEqualTo("lease_expired");
	}

	@Test
	void twoInstancesClaimEveryRunExactlyOnceUnderLoad() throws Exception {
		JdbcRunStore a = store(dataSourceA, this.clock);
		JdbcRunStore b = store(dataSourceB, this.clock);
		int total = 200;
		for (int i = 0; i < total; i++) {
			a.submit(request("load-" + (i % 20))).block(TIMEOUT);
		}
		Set<String> claimed = ConcurrentHashMap.newKeySet();
		List<String> duplicates = new CopyOnWriteArrayList<>();
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int w = 0; w < 8; w++) {
				JdbcRunStore store = (w % 2 == 0) ? a : b;
				String owner = "worker-" + w;
				workers.add(executor.submit(() -> {
					long idleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
					while (claimed.size() < total && System.nanoTime() < idleUntil) {
						for (Run run : store.claim(owner, settings(5)).collectList().block(TIMEOUT)) {
							if (!claimed.add(run.id())) {
								duplicates.add(run.id());
							}
							store.finish(run.id(), owner, RunOutcome.completed(null)).block(TIMEOUT);
							idleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
						}
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(duplicates).isEmpty();
		assertThat(claimed).hasSize(total);
		Integer completed = new JdbcTemplate(dataSourceA).queryForObject(
				"SELECT COUNT(*) FROM " + prefix + "runs WHERE status = 'COMPLETED' AND attempts = 1", Integer.class);
		assertThat(completed).isEqualTo(total);
	}

	@Test
	void anotherInstanceTakesOverARunWhoseLeaseExpired() {
		JdbcRunStore a = store(dataSourceA, this.clock);
		JdbcRunStore b = store(dataSourceB, this.clock);
		Run run = a.submit(request("s")).block(TIMEOUT);
		a.claim("a", settings(1)).blockLast(TIMEOUT);
		assertThat(b.claim("b", settings(1)).collectList().block(TIMEOUT)).isEmpty();

		this.clock.advance(LEASE);
		Run taken = b.claim("b", settings(1)).blockLast(TIMEOUT);

		assertThat(taken.id()).isEqualTo(run.id());
		assertThat(taken.owner()).isEqualTo("b");
		assertThat(taken.attempts()).isEqualTo(2);
		assertThat(a.heartbeat(run.id(), "a", LEASE).block(TIMEOUT)).isEqualTo(Lease.LOST);
		assertThat(a.finish(run.id(), "a", RunOutcome.completed(null)).block(TIMEOUT)).isFalse();
		assertThat(b.finish(run.id(), "b", RunOutcome.completed(null)).block(TIMEOUT)).isTrue();
	}

	@Test
	void thePerSessionLimitHoldsAcrossInstancesClaimingAtOnce() throws Exception {
		JdbcRunStore a = store(dataSourceA, this.clock);
		JdbcRunStore b = store(dataSourceB, this.clock);
		for (int i = 0; i < 20; i++) {
			a.submit(request("shared")).block(TIMEOUT);
		}
		ClaimSettings settings = new ClaimSettings(3, LEASE, 2, 3);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			for (int round = 0; round < 5; round++) {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<List<Run>>> claims = new ArrayList<>();
				for (int w = 0; w < 8; w++) {
					JdbcRunStore store = (w % 2 == 0) ? a : b;
					String owner = "worker-" + w;
					claims.add(executor.submit(() -> {
						start.await();
						return store.claim(owner, settings).collectList().block(TIMEOUT);
					}));
				}
				start.countDown();
				for (Future<List<Run>> claim : claims) {
					claim.get(30, TimeUnit.SECONDS);
				}
				Integer running = new JdbcTemplate(dataSourceA).queryForObject(
						"SELECT COUNT(*) FROM " + prefix + "runs WHERE status = 'RUNNING'", Integer.class);
				assertThat(running).isEqualTo(2);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void eventsAppendedOnOneInstanceAreSignalledOnTheOtherAndReadWithoutGaps() throws Exception {
		JdbcRunStore a = store(dataSourceA, this.clock);
		JdbcRunStore b = store(dataSourceB, this.clock);
		Run run = a.submit(request("s")).block(TIMEOUT);
		Set<String> signalled = ConcurrentHashMap.newKeySet();
		Disposable subscription = b.appended().subscribe(signalled::add);
		try {
			waitUntil(TIMEOUT, () -> b.listenerBackendPid() != 0);
			ExecutorService executor = Executors.newFixedThreadPool(4);
			try {
				List<Future<?>> appenders = new ArrayList<>();
				for (int t = 0; t < 4; t++) {
					int thread = t;
					appenders.add(executor.submit(() -> {
						for (int i = 0; i < 25; i++) {
							a.append(run.id(), "text", json("from", thread + "-" + i)).block(TIMEOUT);
						}
						return null;
					}));
				}
				for (Future<?> appender : appenders) {
					appender.get(60, TimeUnit.SECONDS);
				}
			}
			finally {
				executor.shutdownNow();
			}
			waitUntil(Duration.ofSeconds(5), () -> signalled.contains(run.id()));
		}
		finally {
			subscription.dispose();
		}
		List<RunEvent> events = b.read(run.id(), 0, 1000).collectList().block(TIMEOUT);
		assertThat(events).extracting(RunEvent::sequence)
			.containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 100).boxed().toList());
		assertThat(events).extracting((event) -> event.data().get("from").asString()).doesNotHaveDuplicates();
	}

	@Test
	void submittedRunsAreSignalledOnTheOtherInstance() {
		JdbcRunStore a = store(dataSourceA, this.clock);
		JdbcRunStore b = store(dataSourceB, this.clock);
		Set<String> signalled = ConcurrentHashMap.newKeySet();
		Disposable subscription = b.submitted().subscribe(signalled::add);
		try {
			waitUntil(TIMEOUT, () -> b.listenerBackendPid() != 0);
			Run run = a.submit(request("s")).block(TIMEOUT);
			waitUntil(Duration.ofSeconds(5), () -> signalled.contains(run.id()));
		}
		finally {
			subscription.dispose();
		}
	}

	@Test
	void theListenerConnectsAgainAfterItsConnectionIsKilled() {
		JdbcRunStore a = store(dataSourceA, this.clock);
		JdbcRunStore b = store(dataSourceB, this.clock);
		Run run = a.submit(request("s")).block(TIMEOUT);
		List<String> signalled = new CopyOnWriteArrayList<>();
		Disposable subscription = b.appended().subscribe(signalled::add);
		try {
			waitUntil(TIMEOUT, () -> b.listenerBackendPid() != 0);
			int killed = b.listenerBackendPid();
			new JdbcTemplate(dataSourceA).queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, killed);

			waitUntil(TIMEOUT, () -> b.listenerBackendPid() != 0 && b.listenerBackendPid() != killed);
			a.append(run.id(), "text", json("after", "kill")).block(TIMEOUT);
			waitUntil(Duration.ofSeconds(5), () -> signalled.contains(run.id()));
		}
		finally {
			subscription.dispose();
		}
	}

	@Test
	void closingTheStoreEndsItsSignals() {
		JdbcRunStore b = store(dataSourceB, this.clock);
		List<String> signalled = new CopyOnWriteArrayList<>();
		boolean[] completed = new boolean[1];
		b.appended().subscribe(signalled::add, (ex) -> { }, () -> completed[0] = true);
		waitUntil(TIMEOUT, () -> b.listenerBackendPid() != 0);

		b.close();

		waitUntil(TIMEOUT, () -> completed[0]);
		assertThat(b.listenerBackendPid()).isZero();
		assertThat(b.find("unknown").blockOptional(TIMEOUT)).isEmpty();
	}

	private static void waitUntil(Duration timeout, java.util.function.BooleanSupplier condition) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("condition met within " + timeout).isLessThan(deadline);
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

}
