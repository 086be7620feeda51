package dev.agcore.run;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * One event of a run, as stored: the events of a run are numbered 1, 2, 3... in the order
 * they were appended, and the number is the {@code id} of its server-sent event, so that
 * a client reconnecting with {@code Last-Event-ID} gets every later event once.
 *
 * @param runId the run
 * @param sequence the event's number within the run, from 1
 * @param type the event's type, e.g. {@code text}, {@code tool_call}, {@code completed}
 * @param data the event's data
 * @param createdAt when it was appended
 * @since 0.1.0
 */
public record RunEvent(String runId, long sequence, String type, JsonNode data, Instant createdAt) {

	/** The event that ends a run's stream until it is resumed: the run completed. */
	public static final String COMPLETED = "completed";

	/** The run failed; its data is {@code {"error": code, "message": ...}}. */
	public static final String FAILED = "failed";

	/** The run was cancelled. */
	public static final String CANCELLED = "cancelled";

	/** The run waits for a human; a resumed run continues the same stream. */
	public static final String INTERRUPTED = "interrupted";

	/** The run was claimed by a worker (again, after a lease expired: attempt 2 and up). */
	public static final String STARTED = "run_started";

	private static final Set<String> ENDS = Set.of(COMPLETED, FAILED, CANCELLED, INTERRUPTED);

	public RunEvent {
		Objects.requireNonNull(runId, "'runId' must not be null");
		Objects.requireNonNull(type, "'type' must not be null");
		Objects.requireNonNull(data, "'data' must not be null");
		Objects.requireNonNull(createdAt, "'createdAt' must not be null");
		if (sequence < 1) {
			throw new IllegalArgumentException("'sequence' must be at least 1, was " + sequence);
		}
	}

	/**
	 * Whether this event ends the run's stream: the run completed, failed, was cancelled
	 * or waits for a human.
	 * @return whether no event follows until the run is resumed
	 */
	public boolean endsStream() {
		return ENDS.contains(this.type);
	}

	/**
	 * Whether an event type ends a run's stream.
	 * @param type the type
	 * @return whether it does
	 */
	public static boolean endsStream(String type) {
		return ENDS.contains(type);
	}

}
