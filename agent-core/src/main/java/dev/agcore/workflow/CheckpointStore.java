package dev.agcore.workflow;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Keeps the checkpoints of workflow runs: in memory (one instance), in a relational
 * database or in Redis (shared by every instance). Every write is atomic and idempotent:
 * the first result written for a call id (or answer for an interrupt index) stays, a
 * repeated write changes nothing, and each write increases the checkpoint's version and
 * renews its time-to-live. A checkpoint not written for longer than the time-to-live is
 * gone.
 * <p>
 * A store that cannot be reached fails with a
 * {@link dev.agcore.memory.MemoryUnavailableException}; a checkpoint in a newer format
 * fails loading with a {@link CheckpointFormatException}.
 *
 * @since 0.1.0
 */
public interface CheckpointStore {

	/**
	 * Load a run's checkpoint.
	 * @param runId the run
	 * @return the checkpoint, or empty when nothing was written (or it expired)
	 */
	Mono<Checkpoint> load(String runId);

	/**
	 * Keep a task's result, unless one is kept for the call id already.
	 * @param runId the run
	 * @param callId the call id, {@code <name>#<n>}
	 * @param result the result as JSON
	 * @return whether it was written ({@code false}: a result was there)
	 */
	Mono<Boolean> saveTask(String runId, String callId, JsonNode result);

	/**
	 * Keep the answer to an interrupt, unless one is kept for the index already.
	 * @param runId the run
	 * @param index the interrupt's index, from 0; at most the number of answers kept
	 * @param value the answer
	 * @return whether it was written
	 */
	Mono<Boolean> saveResume(String runId, int index, JsonNode value);

	/**
	 * Record that the run reached an interrupt, so that a later answer is kept for it: the
	 * count of interrupts reached becomes at least {@code index + 1}.
	 * @param runId the run
	 * @param index the interrupt's index, from 0
	 * @return completes when written
	 */
	Mono<Void> saveInterrupt(String runId, int index);

	/**
	 * Remove a run's checkpoint.
	 * @param runId the run
	 * @return whether there was one
	 */
	Mono<Boolean> delete(String runId);

}
