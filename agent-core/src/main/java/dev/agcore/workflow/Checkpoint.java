package dev.agcore.workflow;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * What a {@link CheckpointStore} keeps of a run: the results of its finished tasks by call
 * id, the answers to its interrupts in order, and how many interrupts it reached.
 *
 * @param runId the run
 * @param formatVersion the format the checkpoint was written in
 * @param version a counter every write increases
 * @param tasks the results of finished tasks, by call id ({@code <name>#<n>})
 * @param resumeValues the answers to the interrupts, the k-th for the k-th interrupt call
 * @param interrupts how many interrupt calls the run reached: one more than the answers
 * while it waits for a human
 * @since 0.1.0
 */
public record Checkpoint(String runId, int formatVersion, long version, Map<String, JsonNode> tasks,
		List<JsonNode> resumeValues, int interrupts) {

	/** The format this version of agcore writes and reads. */
	public static final int FORMAT_VERSION = 1;

	public Checkpoint {
		Objects.requireNonNull(runId, "'runId' must not be null");
		tasks = Map.copyOf(tasks);
		resumeValues = List.copyOf(resumeValues);
	}

	/**
	 * The checkpoint of a run nothing was written for.
	 * @param runId the run
	 * @return an empty checkpoint
	 */
	public static Checkpoint empty(String runId) {
		return new Checkpoint(runId, FORMAT_VERSION, 0, Map.of(), List.of(), 0);
	}

	/**
	 * Whether the run waits for an answer to its last interrupt.
	 * @return whether it reached an interrupt not answered yet
	 */
	public boolean awaitsResume() {
		return this.interrupts > this.resumeValues.size();
	}

	/**
	 * Fail when the checkpoint was written in a newer format than this version reads.
	 * @return this checkpoint
	 * @throws CheckpointFormatException if it was
	 */
	public Checkpoint requireReadable() {
		if (this.formatVersion > FORMAT_VERSION) {
			throw new CheckpointFormatException(this.runId, this.formatVersion);
		}
		return this;
	}

}
