package dev.agcore.run;

/**
 * Where a run stands. A run moves from {@link #QUEUED} to {@link #RUNNING} when a worker
 * claims it, and from there to a final status, or to {@link #INTERRUPTED} when it waits
 * for a human; resuming it queues it again. A run whose worker died goes back from
 * {@link #RUNNING} to being claimable when its lease expires.
 *
 * @since 0.1.0
 */
public enum RunStatus {

	/** Waiting for a worker, possibly not before a given time. */
	QUEUED,

	/** Claimed by a worker, which holds a lease on it. */
	RUNNING,

	/** Waiting for human input (a tool approval, a workflow's interrupt); resumable. */
	INTERRUPTED,

	/** Finished with a result. */
	COMPLETED,

	/** Finished with an error. */
	FAILED,

	/** Cancelled before it finished. */
	CANCELLED;

	/**
	 * Whether the run is over for good: completed, failed or cancelled.
	 * @return whether nothing more happens to the run
	 */
	public boolean isFinal() {
		return this == COMPLETED || this == FAILED || this == CANCELLED;
	}

}
