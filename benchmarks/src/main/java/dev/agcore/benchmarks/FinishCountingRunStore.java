package dev.agcore.benchmarks;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunIdempotency;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStore;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A {@link RunStore} that counts the runs its worker finished (the end written and
 * acknowledged), so that a benchmark knows when a batch is drained without polling the
 * database. Everything else is the wrapped store's.
 */
final class FinishCountingRunStore implements RunStore {

	private final RunStore store;

	private final AtomicInteger finished;

	private final Runnable onFinish;

	FinishCountingRunStore(RunStore store, AtomicInteger finished, Runnable onFinish) {
		this.store = store;
		this.finished = finished;
		this.onFinish = onFinish;
	}

	@Override
	public Mono<Boolean> finish(String runId, String owner, RunOutcome outcome) {
		return this.store.finish(runId, owner, outcome).doOnNext((written) -> {
			if (written) {
				this.finished.incrementAndGet();
				this.onFinish.run();
			}
		});
	}

	@Override
	public Mono<Run> submit(RunRequest request) {
		return this.store.submit(request);
	}

	@Override
	public Mono<Run> submit(RunRequest request, @Nullable RunIdempotency idempotency) {
		return this.store.submit(request, idempotency);
	}

	@Override
	public Mono<Run> find(String runId) {
		return this.store.find(runId);
	}

	@Override
	public Mono<Long> countQueued() {
		return this.store.countQueued();
	}

	@Override
	public Flux<Run> list(String sessionId, int offset, int limit) {
		return this.store.list(sessionId, offset, limit);
	}

	@Override
	public Flux<Run> claim(String owner, ClaimSettings settings) {
		return this.store.claim(owner, settings);
	}

	@Override
	public Mono<Lease> heartbeat(String runId, String owner, Duration lease) {
		return this.store.heartbeat(runId, owner, lease);
	}

	@Override
	public Mono<Boolean> release(String runId, String owner) {
		return this.store.release(runId, owner);
	}

	@Override
	public Mono<Run> cancel(String runId) {
		return this.store.cancel(runId);
	}

	@Override
	public Mono<Run> resume(String runId, JsonNode resume) {
		return this.store.resume(runId, resume);
	}

	@Override
	public Mono<RunEvent> append(String runId, String type, JsonNode data) {
		return this.store.append(runId, type, data);
	}

	@Override
	public Flux<RunEvent> read(String runId, long afterSequence, int limit) {
		return this.store.read(runId, afterSequence, limit);
	}

	@Override
	public Flux<String> appended() {
		return this.store.appended();
	}

	@Override
	public Flux<String> submitted() {
		return this.store.submitted();
	}

	@Override
	public Mono<Long> purge(Duration retention) {
		return this.store.purge(retention);
	}

}
