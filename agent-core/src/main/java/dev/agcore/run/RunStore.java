package dev.agcore.run;

import java.time.Duration;

import dev.agcore.AgentPrincipal;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Keeps runs, their queue and their events, shared by every instance of an application:
 * in memory (one instance), in PostgreSQL or in Redis. Implementations are thread-safe
 * and every change is atomic: a run is claimed by one worker at a time, and an event
 * appended is numbered once.
 * <p>
 * A store that cannot be reached fails with a
 * {@link dev.agcore.memory.MemoryUnavailableException} and changes nothing. A change that
 * the run's status does not allow (resuming a run that is not interrupted, say) fails
 * with a {@link RunStateException}; an unknown run with a {@link RunNotFoundException}.
 *
 * @since 0.1.0
 */
public interface RunStore {

	/**
	 * Queue a run, or answer the run already queued with the request's
	 * {@link RunRequest#idempotencyKey() idempotency key}, scoped to the
	 * {@link AgentPrincipal} in the subscriber's context (or to the request's session when
	 * there is none), kind and target, as {@link #submit(RunRequest, RunIdempotency)}
	 * describes.
	 * @param request the run
	 * @return the run, {@link RunStatus#QUEUED}
	 */
	default Mono<Run> submit(RunRequest request) {
		return Mono.deferContextual((context) -> submit(request,
				RunIdempotency.of(request, AgentPrincipal.from(context).map(AgentPrincipal::name).orElse(null))));
	}

	/**
	 * Queue a run, or answer the run already queued under the same scoped idempotency key.
	 * Checking the key and queueing are one atomic step: concurrent submits with one key
	 * queue one run. The same key with a different {@link RunIdempotency#fingerprint()
	 * fingerprint} fails with an {@link IdempotencyConflictException} and queues nothing.
	 * @param request the run
	 * @param idempotency the scoped key and fingerprint, or {@code null} to queue the run
	 * whatever its {@link RunRequest#idempotencyKey()}
	 * @return the run, {@link RunStatus#QUEUED} (or as it stands, when answered by key)
	 */
	Mono<Run> submit(RunRequest request, @Nullable RunIdempotency idempotency);

	/**
	 * Find a run.
	 * @param runId the run
	 * @return the run, or empty when unknown (or purged)
	 */
	Mono<Run> find(String runId);

	/**
	 * Count the runs waiting to be claimed ({@link RunStatus#QUEUED}), those not yet due
	 * included, for the {@code agent.runs.queued} gauge.
	 * @return the count, or empty when the store cannot count them cheaply
	 */
	default Mono<Long> countQueued() {
		return Mono.empty();
	}

	/**
	 * List the runs of a session, newest first (runs submitted at the same instant in the
	 * store's order).
	 * @param sessionId the session
	 * @param offset how many to skip
	 * @param limit the most to return, at least 1
	 * @return the runs
	 */
	Flux<Run> list(String sessionId, int offset, int limit);

	/**
	 * Claim runs for a worker: queued runs whose {@code notBefore} has come, oldest first,
	 * and running runs whose lease expired (their worker died), each moving to
	 * {@link RunStatus#RUNNING} owned by {@code owner} with a lease until now +
	 * {@code lease}, its {@code attempts} increased. A run is never claimed by two workers
	 * at once. Runs of a session that already has {@code maxPerSession} runs running are
	 * left for later. "Oldest first" is by submission for runs submitted to start at once;
	 * where a delayed, released or resumed run takes its turn, and the order of runs
	 * submitted at the same instant, is the store's choice.
	 * <p>
	 * A run whose lease expired after cancelling was requested is
	 * {@link RunStatus#CANCELLED} instead (with a {@link RunEvent#CANCELLED} event, data
	 * <code>{}</code>): nothing is left to run. A run whose lease expired after
	 * {@code maxAttempts} claims is {@link RunStatus#FAILED} with
	 * {@link Run.RunError#leaseExpired()} instead of being claimed again (with a
	 * {@link RunEvent#FAILED} event, data <code>{"error": code, "message": ...}</code>).
	 * @param owner the worker, unique per instance
	 * @param settings how many, for how long
	 * @return the claimed runs, at most {@link ClaimSettings#max()}
	 */
	Flux<Run> claim(String owner, ClaimSettings settings);

	/**
	 * Renew the lease of a run the worker holds.
	 * @param runId the run
	 * @param owner the worker
	 * @param lease how long from now
	 * @return {@link Lease#HELD}, {@link Lease#CANCEL_REQUESTED} when cancelling was asked
	 * for (the lease is renewed; the worker should stop and {@link #finish} the run as
	 * cancelled) or {@link Lease#LOST} when the worker no longer owns the run (its lease
	 * expired and another worker claimed it, or it was finished): the worker must stop
	 * without writing anything more
	 */
	Mono<Lease> heartbeat(String runId, String owner, Duration lease);

	/**
	 * Write how a run ended, if the worker still owns it: its status, result or error; the
	 * lease is released.
	 * @param runId the run
	 * @param owner the worker
	 * @param outcome how it ended
	 * @return whether it was written: {@code false} when the worker lost the run
	 */
	Mono<Boolean> finish(String runId, String owner, RunOutcome outcome);

	/**
	 * Give a run back to the queue, if the worker still owns it, for another worker to
	 * claim now (a worker that stops before its runs finish). Its attempts stay counted.
	 * @param runId the run
	 * @param owner the worker
	 * @return whether it was given back
	 */
	Mono<Boolean> release(String runId, String owner);

	/**
	 * Cancel a run: a queued or interrupted one is {@link RunStatus#CANCELLED} at once
	 * (with a {@link RunEvent#CANCELLED} event, data <code>{}</code>); for a running one cancelling is requested
	 * and its worker learns it at its next {@link #heartbeat}. A final run is left as it
	 * is.
	 * @param runId the run
	 * @return the run after the change; fails with {@link RunNotFoundException}
	 */
	Mono<Run> cancel(String runId);

	/**
	 * Queue an {@link RunStatus#INTERRUPTED interrupted} run again with the human's input;
	 * its {@link Run#attempts() attempts} start again from 0.
	 * @param runId the run
	 * @param resume the input, as the run's executor reads it
	 * @return the run, queued; fails with {@link RunStateException} when it is not
	 * interrupted
	 */
	Mono<Run> resume(String runId, JsonNode resume);

	/**
	 * Append an event to a run, numbered one more than the run's last, and tell every
	 * instance's {@link #appended()} subscribers.
	 * @param runId the run
	 * @param type the event's type
	 * @param data the event's data
	 * @return the stored event; fails with {@link RunNotFoundException} for an unknown run
	 */
	Mono<RunEvent> append(String runId, String type, JsonNode data);

	/**
	 * Read the stored events of a run after a sequence number, in order.
	 * @param runId the run
	 * @param afterSequence the last sequence already seen; {@code 0} for all
	 * @param limit the most to read, at least 1
	 * @return the events; none for an unknown run
	 */
	Flux<RunEvent> read(String runId, long afterSequence, int limit);

	/**
	 * The ids of runs that got an event, on any instance, from the moment of subscribing:
	 * a hot signal (PostgreSQL {@code NOTIFY}, Redis pub/sub) telling readers to
	 * {@link #read} again. Signals may be lost or repeated (those sent while a subscription
	 * is still being set up, say); readers also poll. A store without a way to signal (the
	 * JDBC store on H2 or MariaDB) never signals.
	 * @return the run ids, never completing while the store is up
	 */
	Flux<String> appended();

	/**
	 * Signals that runs were queued or resumed, on any instance, so that idle workers claim
	 * at once rather than at their next poll. Signals may be lost; workers also poll. A
	 * store without a way to signal never signals.
	 * @return a hot signal
	 */
	Flux<String> submitted();

	/**
	 * Remove runs that reached a final status before {@code now - retention}, with their
	 * events.
	 * @param retention how long finished runs are kept
	 * @return how many runs were removed
	 */
	Mono<Long> purge(Duration retention);

	/**
	 * What a worker holds after a heartbeat.
	 */
	enum Lease {

		/** The lease was renewed. */
		HELD,

		/** The lease was renewed, and cancelling the run was asked for. */
		CANCEL_REQUESTED,

		/** The worker does not own the run any more. */
		LOST

	}

	/**
	 * How a worker claims.
	 *
	 * @param max the most runs to claim, at least 1
	 * @param lease how long a claimed run's lease lasts unless renewed
	 * @param maxPerSession the most runs of one session running at once, at least 1
	 * @param maxAttempts the most claims of one run, at least 1
	 */
	record ClaimSettings(int max, Duration lease, int maxPerSession, int maxAttempts) {

		public ClaimSettings {
			if (max < 1 || maxPerSession < 1 || maxAttempts < 1) {
				throw new IllegalArgumentException("max, maxPerSession and maxAttempts must be at least 1");
			}
			if (lease.isZero() || lease.isNegative()) {
				throw new IllegalArgumentException("'lease' must be positive, was " + lease);
			}
		}

	}

}
