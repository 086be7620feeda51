package dev.agcore.run.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
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
import dev.agcore.run.MutableClock;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunStore.ClaimSettings;
import dev.agcore.run.RunStore.Lease;
import dev.agcore.run.RunStoreContractTests;
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

/**
 * The PostgreSQL run store (127.0.0.1:5432, database {@code test}) in tables of this
 * class's own prefix, dropped afterwards: the {@link RunStoreContractTests store
 * contract}, and two instances on two connection pools claiming, taking over expired
 * leases, sharing the per-session limit and signalling each other's events. Skipped when
 * PostgreSQL is not running, failed on CI.
 */
class PostgresRunStoreTests extends RunStoreContractTests {

	private static String prefix;

	private static HikariDataSource dataSourceA;

	private static HikariDataSource dataSourceB;

	private final List<JdbcRunStore> stores = new ArrayList<>();

	@BeforeAll
	static void createTables() {
		ServiceAvailability.require("PostgreSQL", RunTestDatabases.HOST, RunTestDatabases.POSTGRES_PORT);
		prefix = RunTestDatabases.prefix("runs");
		dataSourceA = RunTestDatabases.postgres();
		dataSourceB = RunTestDatabases.postgres();
		JdbcRunStore.SCHEMA.create(dataSourceA, "postgresql", prefix);
		// a second run creates nothing and fails nothing
		JdbcRunStore.SCHEMA.create(dataSourceA, "postgresql", prefix);
	}

	@AfterAll
	static void dropTables() {
		if (dataSourceA != null) {
			JdbcRunStore.SCHEMA.drop(dataSourceA, prefix);
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

	/** The store under test, on the first pool. */
	@Override
	protected RunStore createStore(MutableClock clock) {
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

	private static ClaimSettings settings(int max) {
		return new ClaimSettings(max, LEASE, 100, 3);
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
