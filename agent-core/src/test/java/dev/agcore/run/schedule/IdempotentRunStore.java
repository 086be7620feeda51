package dev.agcore.run.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A test-only {@link RunStore} that only queues: submit is idempotent by key, as every
 * store's is; it can be made to fail.
 */
public final class IdempotentRunStore implements RunStore {

	private final Map<String, Run> byKey = new ConcurrentHashMap<>();

	private final List<Run> queued = new CopyOnWriteArrayList<>();

	private volatile boolean down;

	public List<Run> queued() {
		return this.queued;
	}

	public void down(boolean down) {
		this.down = down;
	}

	@Override
	public Mono<Run> submit(RunRequest request) {
		return Mono.fromSupplier(() -> {
			if (this.down) {
				throw new IllegalStateException("store down");
			}
			return this.byKey.computeIfAbsent(request.idempotencyKey(), (key) -> {
				Run run = new Run(UUID.randomUUID().toString(), request, RunStatus.QUEUED, null, null, null, 0, false,
						null, null, Instant.now(), null, null);
				this.queued.add(run);
				return run;
			});
		});
	}

	@Override
	public Mono<Run> find(String runId) {
		return Flux.fromIterable(this.queued).filter((run) -> run.id().equals(runId)).next();
	}

	@Override
	public Flux<Run> list(String sessionId, int offset, int limit) {
		return Flux.fromIterable(this.queued).filter((run) -> run.sessionId().equals(sessionId)).skip(offset)
			.take(limit);
	}

	@Override
	public Flux<Run> claim(String owner, ClaimSettings settings) {
		return Flux.error(new UnsupportedOperationException());
	}

	@Override
	public Mono<Lease> heartbeat(String runId, String owner, Duration lease) {
		return Mono.error(new UnsupportedOperationException());
	}

	@Override
	public Mono<Boolean> finish(String runId, String owner, RunOutcome outcome) {
		return Mono.error(new UnsupportedOperationException());
	}

	@Override
	public Mono<Boolean> release(String runId, String owner) {
		return Mono.error(new UnsupportedOperationException());
	}

	@Override
	public Mono<Run> cancel(String runId) {
		return Mono.error(new UnsupportedOperationException());
	}

	@Override
	public Mono<Run> resume(String runId, JsonNode resume) {
		return Mono.error(new UnsupportedOperationException());
	}

	@Override
	public Mono<RunEvent> append(String runId, String type, JsonNode data) {
		return Mono.error(new UnsupportedOperationException());
	}

	@Override
	public Flux<RunEvent> read(String runId, long afterSequence, int limit) {
		return Flux.error(new UnsupportedOperationException());
	}

	@Override
	public Flux<String> appended() {
		return Flux.never();
	}

	@Override
	public Flux<String> submitted() {
		return Flux.never();
	}

	@Override
	public Mono<Long> purge(Duration retention) {
		return Mono.just(0L);
	}

}
