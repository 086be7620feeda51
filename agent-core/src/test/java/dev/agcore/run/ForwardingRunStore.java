package dev.agcore.run;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A {@link RunStore} that hands every call to another, for tests that change one. Public
 * so that the tests of other packages can use it.
 */
public class ForwardingRunStore implements RunStore {

	protected final RunStore delegate;

	public ForwardingRunStore(RunStore delegate) {
		this.delegate = delegate;
	}

	@Override
	public Mono<Run> submit(RunRequest request) {
		return this.delegate.submit(request);
	}

	@Override
	public Mono<Run> submit(RunRequest request, @Nullable RunIdempotency idempotency) {
		return this.delegate.submit(request, idempotency);
	}

	@Override
	public Mono<Long> countQueued() {
		return this.delegate.countQueued();
	}

	@Override
	public Mono<Run> find(String runId) {
		return this.delegate.find(runId);
	}

	@Override
	public Flux<Run> list(String sessionId, int offset, int limit) {
		return this.delegate.list(sessionId, offset, limit);
	}

	@Override
	public Flux<Run> claim(String owner, ClaimSettings settings) {
		return this.delegate.claim(owner, settings);
	}

	@Override
	public Mono<Lease> heartbeat(String runId, String owner, Duration lease) {
		return this.delegate.heartbeat(runId, owner, lease);
	}

	@Override
	public Mono<Boolean> finish(String runId, String owner, RunOutcome outcome) {
		return this.delegate.finish(runId, owner, outcome);
	}

	@Override
	public Mono<Boolean> release(String runId, String owner) {
		return this.delegate.release(runId, owner);
	}

	@Override
	public Mono<Run> cancel(String runId) {
		return this.delegate.cancel(runId);
	}

	@Override
	public Mono<Run> resume(String runId, JsonNode resume) {
		return this.delegate.resume(runId, resume);
	}

	@Override
	public Mono<RunEvent> append(String runId, String type, JsonNode data) {
		return this.delegate.append(runId, type, data);
	}

	@Override
	public Flux<RunEvent> read(String runId, long afterSequence, int limit) {
		return this.delegate.read(runId, afterSequence, limit);
	}

	@Override
	public Flux<String> appended() {
		return this.delegate.appended();
	}

	@Override
	public Flux<String> submitted() {
		return this.delegate.submitted();
	}

	@Override
	public Mono<Long> purge(Duration retention) {
		return this.delegate.purge(retention);
	}

}
