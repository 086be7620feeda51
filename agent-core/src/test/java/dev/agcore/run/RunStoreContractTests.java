package dev.agcore.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agcore.AgentPrincipal;
import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The behaviour every {@link RunStore} owes its workers, as the SPI's Javadoc describes
 * it. A store's tests extend this class and create the store on the given clock (the
 * clock moves leases and {@code notBefore}); JDBC and Redis stores use a fresh table or
 * key prefix per test class.
 */
public abstract class RunStoreContractTests {

	protected static final Duration TIMEOUT = Duration.ofSeconds(10);

	protected static final Duration LEASE = Duration.ofSeconds(30);

	protected final MutableClock clock = MutableClock.now();

	protected RunStore store;

	/**
	 * Create the store under test, empty.
	 * @param clock the clock it must read time from
	 * @return the store
	 */
	protected abstract RunStore createStore(MutableClock clock);

	/**
	 * Whether the store signals {@link RunStore#appended()} and {@link RunStore#submitted()};
	 * one that cannot never signals, which the SPI allows.
	 * @return {@code true} by default
	 */
	protected boolean signals() {
		return true;
	}

	/**
	 * Whether the store counts its queued runs; one that cannot returns empty, which the SPI
	 * allows.
	 * @return {@code true} by default
	 */
	protected boolean countsQueued() {
		return true;
	}

	/** Release what the store holds; nothing by default. */
	protected void closeStore(RunStore store) {
	}

	@BeforeEach
	void createTheStore() {
		this.store = createStore(this.clock);
	}

	@AfterEach
	void closeTheStore() {
		closeStore(this.store);
	}

	@Test
	void submittedRunIsQueuedAndFoundWithEveryField() {
		RunRequest request = request("s1").withUserId("ann")
			.withDeadline(Duration.ofMinutes(5))
			.withNotBefore(this.clock.instant().plusSeconds(60))
			.withIdempotencyKey("key-0");
		Run run = submit(request);
		assertThat(run.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(run.request()).isEqualTo(request);
		assertThat(run.attempts()).isZero();
		assertThat(run.cancelRequested()).isFalse();
		assertThat(run.createdAt()).isEqualTo(this.clock.instant());
		assertThat(run.owner()).isNull();
		assertThat(run.leaseExpiresAt()).isNull();
		assertThat(run.startedAt()).isNull();
		assertThat(run.finishedAt()).isNull();
		assertThat(find(run.id())).isEqualTo(run);
		assertThat(this.store.find("no-such-run").blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void idempotencyKeyQueuesOneRun() {
		Run first = submit(request("s1").withIdempotencyKey("key-1"));
		Run second = submit(request("s1").withIdempotencyKey("key-1"));
		Run other = submit(request("s1").withIdempotencyKey("key-2"));
		assertThat(second.id()).isEqualTo(first.id());
		assertThat(other.id()).isNotEqualTo(first.id());
		assertThat(this.store.list("s1", 0, 10).collectList().block(TIMEOUT)).hasSize(2);
	}

	@Test
	void concurrentSubmitsWithOneIdempotencyKeyQueueOneRun() throws Exception {
		RunRequest request = request("s1").withIdempotencyKey("key-1");
		int threads = 6;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<Run>> submits = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				submits.add(pool.submit(() -> {
					start.await();
					return submit(request);
				}));
			}
			start.countDown();
			Set<String> ids = new HashSet<>();
			for (Future<Run> future : submits) {
				ids.add(future.get(60, TimeUnit.SECONDS).id());
			}
			assertThat(ids).hasSize(1);
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(this.store.list("s1", 0, 10).collectList().block(TIMEOUT)).hasSize(1);
		assertThat(claim("w1", 10, 10, 3)).hasSize(1);
	}

	@Test
	void idempotencyKeyIsScopedToThePrincipal() {
		RunRequest request = request("s1").withIdempotencyKey("shared-key");
		Run alices = submitAs("alice", request);
		Run bobs = submitAs("bob", request);
		assertThat(bobs.id()).isNotEqualTo(alices.id());
		assertThat(submitAs("alice", request).id()).isEqualTo(alices.id());
		assertThat(submitAs("bob", request).id()).isEqualTo(bobs.id());
		// a principal's key is not an anonymous caller's key either
		assertThat(submit(request).id()).isNotIn(alices.id(), bobs.id());
	}

	@Test
	void idempotencyKeyIsScopedToThePrincipalInTheSubscribersContext() {
		RunRequest request = request("s1").withIdempotencyKey("shared-key");
		Run alices = this.store.submit(request)
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice")))
			.block(TIMEOUT);
		Run bobs = this.store.submit(request)
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("bob")))
			.block(TIMEOUT);
		assertThat(bobs.id()).isNotEqualTo(alices.id());
		assertThat(submitAs("alice", request).id()).isEqualTo(alices.id());
	}

	@Test
	void idempotencyKeyWithoutPrincipalIsScopedToTheSession() {
		Run first = submit(request("s1").withIdempotencyKey("shared-key"));
		Run other = submit(request("s2").withIdempotencyKey("shared-key"));
		assertThat(other.id()).isNotEqualTo(first.id());
		assertThat(other.sessionId()).isEqualTo("s2");
	}

	@Test
	void idempotencyKeyIsScopedToTheKindAndTarget() {
		RunRequest request = request("s1").withIdempotencyKey("shared-key");
		Run first = submitAs("alice", request);
		RunRequest otherTarget = new RunRequest("agent", "other", "s1", request.input(), null, null, null,
				"shared-key");
		RunRequest otherKind = new RunRequest("workflow", "assistant", "s1", request.input(), null, null, null,
				"shared-key");
		assertThat(submitAs("alice", otherTarget).id()).isNotEqualTo(first.id());
		assertThat(submitAs("alice", otherKind).id()).isNotEqualTo(first.id());
	}

	@Test
	void sameIdempotencyKeyWithAnotherRequestIsAConflictAndQueuesNothing() {
		RunRequest request = request("s1").withIdempotencyKey("key-1");
		Run first = submitAs("alice", request);
		RunRequest changed = new RunRequest("agent", "assistant", "s1", json("{\"message\":\"something else\"}"),
				null, null, null, "key-1");
		StepVerifier.create(this.store.submit(changed, RunIdempotency.of(changed, "alice")))
			.expectError(IdempotencyConflictException.class)
			.verify(TIMEOUT);
		// the first request again still answers its run; nothing else was queued
		assertThat(submitAs("alice", request).id()).isEqualTo(first.id());
		assertThat(this.store.list("s1", 0, 10).collectList().block(TIMEOUT)).extracting(Run::id)
			.containsExactly(first.id());
	}

	@Test
	void fingerprintIgnoresTheOrderOfObjectMembers() {
		RunRequest one = new RunRequest("agent", "assistant", "s1", json("{\"a\":1,\"b\":{\"x\":1,\"y\":[1,2]}}"),
				null, null, null, "key-1");
		RunRequest two = new RunRequest("agent", "assistant", "s1", json("{\"b\":{\"y\":[1,2],\"x\":1},\"a\":1}"),
				null, null, null, "key-1");
		assertThat(submitAs("alice", two).id()).isEqualTo(submitAs("alice", one).id());
	}

	@Test
	void concurrentSubmitsOfOnePrincipalsKeyWithTwoRequestsQueueOneRun() throws Exception {
		RunRequest first = request("s1").withIdempotencyKey("key-1");
		RunRequest second = new RunRequest("agent", "assistant", "s1", json("{\"message\":\"other\"}"), null, null,
				null, "key-1");
		int threads = 6;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		Set<String> ids = Collections.synchronizedSet(new HashSet<>());
		List<Throwable> conflicts = Collections.synchronizedList(new ArrayList<>());
		try {
			List<Future<?>> submits = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				RunRequest request = (i % 2 == 0) ? first : second;
				submits.add(pool.submit(() -> {
					start.await();
					try {
						ids.add(submitAs("alice", request).id());
					}
					catch (IdempotencyConflictException ex) {
						conflicts.add(ex);
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : submits) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		// whichever request won, the other half was refused
		assertThat(ids).hasSize(1);
		assertThat(conflicts).hasSize(threads / 2);
		assertThat(this.store.list("s1", 0, 10).collectList().block(TIMEOUT)).hasSize(1);
	}

	@Test
	void listsASessionsRunsNewestFirstWithPaging() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ids.add(submit(request("s1")).id());
			this.clock.advance(Duration.ofSeconds(1));
		}
		submit(request("s2"));
		Collections.reverse(ids);
		assertThat(this.store.list("s1", 0, 10).map(Run::id).collectList().block(TIMEOUT)).isEqualTo(ids);
		assertThat(this.store.list("s1", 1, 2).map(Run::id).collectList().block(TIMEOUT))
			.isEqualTo(ids.subList(1, 3));
		assertThat(this.store.list("nobody", 0, 10).collectList().block(TIMEOUT)).isEmpty();
	}

	@Test
	void claimMovesQueuedRunsOldestFirstToRunningWithALease() {
		Run first = submit(request("s1"));
		this.clock.advance(Duration.ofSeconds(1));
		Run second = submit(request("s2"));
		this.clock.advance(Duration.ofSeconds(1));
		submit(request("s3"));
		List<Run> claimed = claim("w1", 2, 1, 3);
		assertThat(claimed).extracting(Run::id).containsExactly(first.id(), second.id());
		Run run = claimed.get(0);
		assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
		assertThat(run.owner()).isEqualTo("w1");
		assertThat(run.attempts()).isEqualTo(1);
		assertThat(run.leaseExpiresAt()).isEqualTo(this.clock.instant().plus(LEASE));
		assertThat(run.startedAt()).isEqualTo(this.clock.instant());
		assertThat(claim("w2", 10, 1, 3)).hasSize(1);
		assertThat(claim("w3", 10, 1, 3)).isEmpty();
	}

	@Test
	void runIsNotClaimedBeforeItsNotBefore() {
		submit(request("s1").withNotBefore(this.clock.instant().plusSeconds(60)));
		assertThat(claim("w1", 10, 1, 3)).isEmpty();
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(claim("w1", 10, 1, 3)).hasSize(1);
	}

	@Test
	void runsOfOneSessionWaitForMaxPerSession() {
		Run a = submit(request("s1"));
		this.clock.advance(Duration.ofSeconds(1));
		Run b = submit(request("s1"));
		this.clock.advance(Duration.ofSeconds(1));
		Run c = submit(request("s2"));
		assertThat(claim("w1", 10, 1, 3)).extracting(Run::id).containsExactly(a.id(), c.id());
		assertThat(claim("w1", 10, 1, 3)).isEmpty();
		assertThat(this.store.finish(a.id(), "w1", RunOutcome.completed(null)).block(TIMEOUT)).isTrue();
		assertThat(claim("w1", 10, 1, 3)).extracting(Run::id).containsExactly(b.id());
		Run d = submit(request("s3"));
		this.clock.advance(Duration.ofSeconds(1));
		Run e = submit(request("s3"));
		assertThat(claim("w1", 10, 2, 3)).extracting(Run::id).containsExactly(d.id(), e.id());
	}

	@Test
	void expiredLeaseIsClaimedAgainAndTheOldOwnerLosesIt() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 3);
		this.clock.advance(LEASE.minusSeconds(1));
		assertThat(claim("w2", 1, 1, 3)).isEmpty();
		this.clock.advance(Duration.ofSeconds(1));
		List<Run> taken = claim("w2", 1, 1, 3);
		assertThat(taken).singleElement().satisfies((again) -> {
			assertThat(again.id()).isEqualTo(run.id());
			assertThat(again.owner()).isEqualTo("w2");
			assertThat(again.attempts()).isEqualTo(2);
		});
		assertThat(this.store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.LOST);
		assertThat(this.store.finish(run.id(), "w1", RunOutcome.completed(null)).block(TIMEOUT)).isFalse();
		assertThat(this.store.release(run.id(), "w1").block(TIMEOUT)).isFalse();
		assertThat(this.store.heartbeat(run.id(), "w2", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.HELD);
		assertThat(this.store.finish(run.id(), "w2", RunOutcome.completed(json("{\"ok\":true}"))).block(TIMEOUT))
			.isTrue();
		Run done = find(run.id());
		assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
		assertThat(done.result()).isEqualTo(json("{\"ok\":true}"));
		assertThat(done.finishedAt()).isEqualTo(this.clock.instant());
		assertThat(done.owner()).isNull();
	}

	@Test
	void heartbeatRenewsTheLeaseOfItsOwnerOnly() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 3);
		this.clock.advance(LEASE.minusSeconds(5));
		assertThat(this.store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.HELD);
		assertThat(find(run.id()).leaseExpiresAt()).isEqualTo(this.clock.instant().plus(LEASE));
		this.clock.advance(LEASE.minusSeconds(5));
		assertThat(claim("w2", 1, 1, 3)).isEmpty();
		assertThat(this.store.heartbeat(run.id(), "w2", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.LOST);
		assertThat(this.store.heartbeat("no-such-run", "w1", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.LOST);
		assertThat(this.store.finish(run.id(), "w1", RunOutcome.completed(null)).block(TIMEOUT)).isTrue();
		assertThat(this.store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.LOST);
	}

	@Test
	void finishWritesAFailureOnlyForTheOwner() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 3);
		assertThat(this.store.finish(run.id(), "w2", RunOutcome.completed(json("{\"answer\":\"no\"}"))).block(TIMEOUT))
			.isFalse();
		this.clock.advance(Duration.ofSeconds(3));
		assertThat(this.store.finish(run.id(), "w1", RunOutcome.failed("model_error", "boom")).block(TIMEOUT)).isTrue();
		Run failed = find(run.id());
		assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
		assertThat(failed.error()).isEqualTo(new Run.RunError("model_error", "boom"));
		assertThat(failed.result()).isNull();
		assertThat(failed.owner()).isNull();
		assertThat(failed.leaseExpiresAt()).isNull();
		assertThat(failed.finishedAt()).isEqualTo(this.clock.instant());
		assertThat(this.store.finish(run.id(), "w1", RunOutcome.completed(null)).block(TIMEOUT)).isFalse();
		assertThat(find(run.id())).isEqualTo(failed);
	}

	@Test
	void runFailsWithLeaseExpiredAfterMaxAttempts() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 2);
		this.clock.advance(LEASE);
		claim("w2", 1, 1, 2);
		this.clock.advance(LEASE);
		assertThat(claim("w3", 1, 1, 2)).isEmpty();
		Run failed = find(run.id());
		assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
		assertThat(failed.error()).isEqualTo(Run.RunError.leaseExpired());
		assertThat(failed.attempts()).isEqualTo(2);
		assertThat(failed.owner()).isNull();
		assertThat(failed.finishedAt()).isEqualTo(this.clock.instant());
		assertThat(read(run.id(), 0)).singleElement().satisfies((event) -> {
			assertThat(event.type()).isEqualTo(RunEvent.FAILED);
			assertThat(event.data()).isEqualTo(json("{\"error\":\"lease_expired\",\"message\":\""
					+ Run.RunError.leaseExpired().message() + "\"}"));
		});
		assertThat(this.store.heartbeat(run.id(), "w2", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.LOST);
	}

	@Test
	void runWhoseCancellingWasRequestedIsCancelledWhenItsLeaseExpires() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 3);
		this.store.cancel(run.id()).block(TIMEOUT);
		this.clock.advance(LEASE);
		// its worker died before it could stop: nothing is left to run
		assertThat(claim("w2", 1, 1, 3)).isEmpty();
		Run cancelled = find(run.id());
		assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
		assertThat(cancelled.owner()).isNull();
		assertThat(cancelled.finishedAt()).isEqualTo(this.clock.instant());
		assertThat(read(run.id(), 0)).singleElement().satisfies((event) -> {
			assertThat(event.type()).isEqualTo(RunEvent.CANCELLED);
			assertThat(event.data()).isEqualTo(json("{}"));
		});
		assertThat(this.store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT)).isEqualTo(RunStore.Lease.LOST);
	}

	@Test
	void releasedRunIsQueuedAgainWithItsAttemptsCounted() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 3);
		assertThat(this.store.release(run.id(), "w2").block(TIMEOUT)).isFalse();
		assertThat(this.store.release(run.id(), "w1").block(TIMEOUT)).isTrue();
		Run queued = find(run.id());
		assertThat(queued.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(queued.owner()).isNull();
		assertThat(claim("w2", 1, 1, 3)).singleElement().satisfies((again) -> assertThat(again.attempts()).isEqualTo(2));
	}

	@Test
	void cancellingAQueuedRunCancelsItAtOnceWithAnEvent() {
		Run run = submit(request("s1"));
		Run cancelled = this.store.cancel(run.id()).block(TIMEOUT);
		assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
		assertThat(cancelled.finishedAt()).isEqualTo(this.clock.instant());
		assertThat(read(run.id(), 0)).singleElement().satisfies((event) -> {
			assertThat(event.type()).isEqualTo(RunEvent.CANCELLED);
			assertThat(event.data()).isEqualTo(json("{}"));
		});
		assertThat(claim("w1", 1, 1, 3)).isEmpty();
		// a final run is left as it is
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.store.cancel(run.id()).block(TIMEOUT)).isEqualTo(cancelled);
		assertThat(read(run.id(), 0)).hasSize(1);
	}

	@Test
	void cancellingARunningRunIsRequestedAndTheWorkerLearnsItAtItsHeartbeat() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 3);
		Run requested = this.store.cancel(run.id()).block(TIMEOUT);
		assertThat(requested.status()).isEqualTo(RunStatus.RUNNING);
		assertThat(requested.cancelRequested()).isTrue();
		assertThat(this.store.heartbeat(run.id(), "w1", LEASE).block(TIMEOUT))
			.isEqualTo(RunStore.Lease.CANCEL_REQUESTED);
		assertThat(this.store.finish(run.id(), "w1", RunOutcome.cancelled()).block(TIMEOUT)).isTrue();
		assertThat(find(run.id()).status()).isEqualTo(RunStatus.CANCELLED);
	}

	@Test
	void cancellingAnInterruptedRunCancelsItAtOnce() {
		Run run = interrupted();
		assertThat(this.store.cancel(run.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.CANCELLED);
		assertThat(read(run.id(), 0)).extracting(RunEvent::type)
			.containsExactly(RunEvent.INTERRUPTED, RunEvent.CANCELLED);
	}

	@Test
	void cancellingAnUnknownRunFails() {
		StepVerifier.create(this.store.cancel("no-such-run"))
			.expectError(RunNotFoundException.class)
			.verify(TIMEOUT);
	}

	@Test
	void interruptedRunIsResumedIntoTheQueueWithTheInput() {
		Run run = interrupted();
		assertThat(find(run.id()).result()).isEqualTo(json("{\"ask\":\"approve?\"}"));
		JsonNode decisions = json("{\"decisions\":{\"c1\":{\"type\":\"approve\"}}}");
		Run queued = this.store.resume(run.id(), decisions).block(TIMEOUT);
		assertThat(queued.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(queued.resume()).isEqualTo(decisions);
		assertThat(queued.result()).isNull();
		assertThat(queued.owner()).isNull();
		assertThat(queued.finishedAt()).isNull();
		assertThat(queued.attempts()).as("claims count again from a person's resume").isZero();
		assertThat(claim("w1", 1, 1, 3)).singleElement().satisfies((again) -> {
			assertThat(again.resume()).isEqualTo(decisions);
			assertThat(again.attempts()).isEqualTo(1);
		});
	}

	@Test
	void onlyAnInterruptedRunIsResumed() {
		Run run = submit(request("s1"));
		StepVerifier.create(this.store.resume(run.id(), json("{}")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(RunStateException.class)
				.hasMessage("Run '" + run.id() + "' is queued, not interrupted: only an interrupted run can be resumed"))
			.verify(TIMEOUT);
		claim("w1", 1, 1, 3);
		StepVerifier.create(this.store.resume(run.id(), json("{}")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(RunStateException.class)
				.hasMessageContaining("is running"))
			.verify(TIMEOUT);
		StepVerifier.create(this.store.resume("no-such-run", json("{}")))
			.expectError(RunNotFoundException.class)
			.verify(TIMEOUT);
	}

	@Test
	void eventsAreNumberedFromOneAndReadAfterASequence() {
		Run run = submit(request("s1"));
		for (int i = 1; i <= 5; i++) {
			RunEvent event = this.store.append(run.id(), "text", json("{\"n\":" + i + "}")).block(TIMEOUT);
			assertThat(event.sequence()).isEqualTo(i);
		}
		assertThat(read(run.id(), 0)).extracting(RunEvent::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
		assertThat(read(run.id(), 3)).extracting((event) -> event.data().get("n").asInt()).containsExactly(4, 5);
		assertThat(this.store.read(run.id(), 1, 2).map(RunEvent::sequence).collectList().block(TIMEOUT))
			.containsExactly(2L, 3L);
		assertThat(read(run.id(), 5)).isEmpty();
		assertThat(read(run.id(), 4)).singleElement().satisfies((event) -> {
			assertThat(event.runId()).isEqualTo(run.id());
			assertThat(event.type()).isEqualTo("text");
			assertThat(event.createdAt()).isEqualTo(this.clock.instant());
		});
		Run other = submit(request("s1"));
		assertThat(this.store.append(other.id(), "text", json("{}")).block(TIMEOUT).sequence()).isEqualTo(1);
		assertThat(read("no-such-run", 0)).isEmpty();
	}

	@Test
	void pagingArgumentsAreValidated() {
		StepVerifier.create(this.store.read("no-such-run", 0, 0))
			.expectError(IllegalArgumentException.class)
			.verify(TIMEOUT);
		StepVerifier.create(this.store.list("s1", 0, 0)).expectError(IllegalArgumentException.class).verify(TIMEOUT);
		StepVerifier.create(this.store.list("s1", -1, 10))
			.expectError(IllegalArgumentException.class)
			.verify(TIMEOUT);
	}

	@Test
	void appendingToAnUnknownRunFails() {
		StepVerifier.create(this.store.append("no-such-run", "text", json("{}")))
			.expectError(RunNotFoundException.class)
			.verify(TIMEOUT);
	}

	@Test
	void appendingSignalsTheRunId() {
		Run run = submit(request("s1"));
		if (!signals()) {
			// as documented for such a store: no signal ever, its readers poll
			StepVerifier.create(this.store.appended()
				.mergeWith(this.store.append(run.id(), "text", json("{}")).then(Mono.empty())))
				.expectSubscription()
				.expectNoEvent(Duration.ofMillis(300))
				.thenCancel()
				.verify(TIMEOUT);
			return;
		}
		// signals may be lost while the subscription is set up: append until one arrives
		String signalled = this.store.appended()
			.filter(run.id()::equals)
			.next()
			.mergeWith(Flux.interval(Duration.ofMillis(100))
				.onBackpressureDrop()
				.concatMap((tick) -> this.store.append(run.id(), "text", json("{}")))
				.then(Mono.empty()))
			.next()
			.block(TIMEOUT);
		assertThat(signalled).isEqualTo(run.id());
	}

	@Test
	void submittingSignalsWorkers() {
		if (!signals()) {
			StepVerifier.create(this.store.submitted().mergeWith(this.store.submit(request("s1")).then(Mono.empty())))
				.expectSubscription()
				.expectNoEvent(Duration.ofMillis(300))
				.thenCancel()
				.verify(TIMEOUT);
			return;
		}
		String signalled = this.store.submitted()
			.next()
			.mergeWith(Flux.interval(Duration.ofMillis(100))
				.onBackpressureDrop()
				.concatMap((tick) -> this.store.submit(request("s1")))
				.then(Mono.empty()))
			.next()
			.block(TIMEOUT);
		assertThat(find(signalled).status()).isEqualTo(RunStatus.QUEUED);
	}

	@Test
	void signalsWithoutSubscribersAreDropped() {
		Run run = submit(request("s1"));
		// nobody listens: appending must not fail
		assertThat(this.store.append(run.id(), "text", json("{}")).block(TIMEOUT)).isNotNull();
	}

	@Test
	void purgeRemovesFinalRunsOlderThanTheRetentionWithTheirEvents() {
		Run old = submit(request("s1").withIdempotencyKey("old"));
		this.store.append(old.id(), "text", json("{}")).block(TIMEOUT);
		this.store.cancel(old.id()).block(TIMEOUT);
		Run queued = submit(request("s1"));
		this.clock.advance(Duration.ofDays(8));
		Run recent = submit(request("s2"));
		this.store.cancel(recent.id()).block(TIMEOUT);
		assertThat(this.store.purge(Duration.ofDays(7)).block(TIMEOUT)).isEqualTo(1L);
		assertThat(this.store.find(old.id()).blockOptional(TIMEOUT)).isEmpty();
		assertThat(read(old.id(), 0)).isEmpty();
		assertThat(find(queued.id()).status()).isEqualTo(RunStatus.QUEUED);
		assertThat(find(recent.id()).status()).isEqualTo(RunStatus.CANCELLED);
		assertThat(this.store.list("s1", 0, 10).map(Run::id).collectList().block(TIMEOUT))
			.containsExactly(queued.id());
		// the purged run's idempotency key is free again
		assertThat(submit(request("s1").withIdempotencyKey("old")).id()).isNotEqualTo(old.id());
	}

	@Test
	void concurrentClaimsNeverClaimARunTwice() throws Exception {
		int runs = 200;
		for (int i = 0; i < runs; i++) {
			submit(request("session-" + i));
		}
		int threads = 4;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<List<String>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				String owner = "w" + t;
				futures.add(pool.submit(() -> {
					start.await();
					List<String> mine = new ArrayList<>();
					while (true) {
						List<Run> claimed = this.store.claim(owner, new RunStore.ClaimSettings(7, LEASE, 1, 3))
							.collectList()
							.block(TIMEOUT);
						if (claimed.isEmpty()) {
							return mine;
						}
						claimed.forEach((run) -> {
							assertThat(run.owner()).isEqualTo(owner);
							mine.add(run.id());
						});
					}
				}));
			}
			start.countDown();
			List<String> all = new ArrayList<>();
			for (Future<List<String>> future : futures) {
				all.addAll(future.get(60, TimeUnit.SECONDS));
			}
			assertThat(all).hasSize(runs);
			assertThat(new HashSet<>(all)).hasSize(runs);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void concurrentAppendsAreNumberedOnceEach() throws Exception {
		Run run = submit(request("s1"));
		int threads = 4;
		int each = 50;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<List<Long>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(pool.submit(() -> Flux.range(0, each)
					.concatMap((i) -> this.store.append(run.id(), "text", json("{}")))
					.map(RunEvent::sequence)
					.collectList()
					.block(TIMEOUT)));
			}
			Set<Long> sequences = new HashSet<>();
			for (Future<List<Long>> future : futures) {
				sequences.addAll(future.get(60, TimeUnit.SECONDS));
			}
			assertThat(sequences).hasSize(threads * each);
			assertThat(this.store.read(run.id(), 0, 1000).map(RunEvent::sequence).collectList().block(TIMEOUT))
				.isEqualTo(Flux.range(1, threads * each).map(Long::valueOf).collectList().block(TIMEOUT));
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void requestsAreValidated() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new RunStore.ClaimSettings(0, LEASE, 1, 1));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> request("s1").withDeadline(Duration.ZERO));
	}

	protected Run interrupted() {
		Run run = submit(request("s1"));
		claim("w1", 1, 1, 3);
		this.store.append(run.id(), RunEvent.INTERRUPTED, json("{}")).block(TIMEOUT);
		this.store.finish(run.id(), "w1", RunOutcome.interrupted(json("{\"ask\":\"approve?\"}"))).block(TIMEOUT);
		Run found = find(run.id());
		assertThat(found.status()).isEqualTo(RunStatus.INTERRUPTED);
		assertThat(found.finishedAt()).isNull();
		return found;
	}

	@Test
	void queuedRunsAreCountedUntilClaimed() {
		if (!countsQueued()) {
			// as the SPI allows: no count rather than a wrong one
			submit(request("s1"));
			assertThat(this.store.countQueued().blockOptional(TIMEOUT)).isEmpty();
			return;
		}
		assertThat(this.store.countQueued().block(TIMEOUT)).isZero();
		submit(request("s1"));
		submit(request("s2").withNotBefore(this.clock.instant().plusSeconds(60)));
		assertThat(this.store.countQueued().block(TIMEOUT)).isEqualTo(2);
		assertThat(claim("w1", 10, 10, 3)).hasSize(1);
		assertThat(this.store.countQueued().block(TIMEOUT)).isEqualTo(1);
	}

	protected static RunRequest request(String sessionId) {
		ObjectNode input = AgentJson.mapper().createObjectNode();
		input.put("message", "hello");
		return RunRequest.of("agent", "assistant", sessionId, input);
	}

	protected Run submit(RunRequest request) {
		return this.store.submit(request).block(TIMEOUT);
	}

	protected Run submitAs(String principal, RunRequest request) {
		return this.store.submit(request, RunIdempotency.of(request, principal)).block(TIMEOUT);
	}

	protected Run find(String runId) {
		Run run = this.store.find(runId).block(TIMEOUT);
		assertThat(run).as("run " + runId).isNotNull();
		return run;
	}

	protected List<Run> claim(String owner, int max, int maxPerSession, int maxAttempts) {
		return this.store.claim(owner, new RunStore.ClaimSettings(max, LEASE, maxPerSession, maxAttempts))
			.collectList()
			.block(TIMEOUT);
	}

	protected List<RunEvent> read(String runId, long after) {
		return this.store.read(runId, after, 1000).collectList().block(TIMEOUT);
	}

	protected static JsonNode json(String json) {
		return AgentJson.mapper().readTree(json);
	}

}
