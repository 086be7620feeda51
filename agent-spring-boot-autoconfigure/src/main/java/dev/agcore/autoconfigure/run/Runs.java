package dev.agcore.autoconfigure.run;

import java.util.List;
import java.util.Map;

import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunEventStream;
import dev.agcore.run.RunExecutor;
import dev.agcore.run.RunIdempotency;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunWorker;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Background runs for applications: submit a run of an agent or a workflow, find it, list
 * a session's runs, cancel, resume and stream its events, whichever instance executes it.
 *
 * @since 0.1.0
 */
public class Runs {

	private final RunStore store;

	private final RunEventStream events;

	private final Map<String, RunExecutor> executors;

	private final @Nullable RunWorker worker;

	public Runs(RunStore store, RunEventStream events, Map<String, RunExecutor> executors,
			@Nullable RunWorker worker) {
		this.store = store;
		this.events = events;
		this.executors = executors;
		this.worker = worker;
	}

	/**
	 * Queue a run, after checking that its kind and target exist and that its executor
	 * takes its input.
	 * @param request the run
	 * @return the run, queued (or the one queued first with the same idempotency key);
	 * fails with {@link RunTargetNotFoundException} for an unknown kind or target, and with
	 * an {@link IllegalArgumentException} for input the target cannot take
	 */
	public Mono<Run> submit(RunRequest request) {
		return Mono.defer(() -> {
			check(request.kind(), request.target(), request.input());
			return this.store.submit(request);
		});
	}

	/**
	 * Queue a run with its idempotency key scoped by the caller, after the same checks as
	 * {@link #submit(RunRequest)}. {@code submit(RunRequest)} scopes the key to the
	 * {@link dev.agcore.AgentPrincipal} in the subscriber's context, or to the session.
	 * @param request the run
	 * @param idempotency the scoped key and the request's fingerprint, or {@code null}
	 * @return the run, queued (or the one queued first with the same scoped key); fails
	 * with {@link dev.agcore.run.IdempotencyConflictException} when that key was used with
	 * another request
	 */
	public Mono<Run> submit(RunRequest request, @Nullable RunIdempotency idempotency) {
		return Mono.defer(() -> {
			check(request.kind(), request.target(), request.input());
			return this.store.submit(request, idempotency);
		});
	}

	/**
	 * Whether a run could be submitted: its kind and target exist and its executor takes
	 * its input.
	 * @param kind the kind
	 * @param target the agent or workflow
	 * @param input the input
	 * @throws RunTargetNotFoundException for an unknown kind or target
	 * @throws IllegalArgumentException for input the target cannot take
	 */
	public void check(String kind, String target, JsonNode input) {
		checkTarget(kind, target);
		this.executors.get(kind).validate(target, input);
	}

	/**
	 * Whether runs of a kind can be submitted for a target.
	 * @param kind the kind
	 * @param target the agent or workflow
	 * @throws RunTargetNotFoundException when not
	 */
	public void checkTarget(String kind, String target) {
		RunExecutor executor = this.executors.get(kind);
		if (executor == null) {
			throw new RunTargetNotFoundException(kind, List.copyOf(this.executors.keySet()));
		}
		List<String> targets = executor.targets();
		if (!targets.contains(target)) {
			throw new RunTargetNotFoundException(kind, target, targets);
		}
	}

	/**
	 * The names runs of a kind can be submitted for.
	 * @param kind the kind
	 * @return the names, empty for an unknown kind
	 */
	public List<String> targets(String kind) {
		RunExecutor executor = this.executors.get(kind);
		return (executor != null) ? executor.targets() : List.of();
	}

	/**
	 * A run.
	 * @param runId the run
	 * @return the run; fails with {@link RunNotFoundException}
	 */
	public Mono<Run> get(String runId) {
		return this.store.find(runId).switchIfEmpty(Mono.error(() -> new RunNotFoundException(runId)));
	}

	/**
	 * The runs of a session, newest first.
	 * @param sessionId the session
	 * @param offset how many to skip
	 * @param limit the most to return
	 * @return the runs
	 */
	public Flux<Run> list(String sessionId, int offset, int limit) {
		return this.store.list(sessionId, offset, limit);
	}

	/**
	 * Cancel a run: at once when it is queued or interrupted, or when it executes on this
	 * instance; else at its worker's next heartbeat.
	 * @param runId the run
	 * @return the run after the change
	 */
	public Mono<Run> cancel(String runId) {
		return this.store.cancel(runId).doOnNext((run) -> {
			if (run.status() == RunStatus.RUNNING && this.worker != null) {
				this.worker.cancel(runId);
			}
		});
	}

	/**
	 * Queue an interrupted run again with the human's input.
	 * @param runId the run
	 * @param resume the input, as the run's executor reads it
	 * @return the run, queued; fails with {@link dev.agcore.run.RunStateException} when it
	 * is not interrupted
	 */
	public Mono<Run> resume(String runId, JsonNode resume) {
		return this.store.resume(runId, resume);
	}

	/**
	 * The events of a run after a sequence number: stored ones, then live ones until the
	 * run ends or waits for a human.
	 * @param runId the run
	 * @param afterSequence the last event seen, {@code 0} for all
	 * @return the events
	 */
	public Flux<RunEvent> events(String runId, long afterSequence) {
		return this.events.events(runId, afterSequence);
	}

}
