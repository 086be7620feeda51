package dev.agcore.run;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A run as its store keeps it.
 *
 * @param id the run's id, chosen by the store when it is submitted
 * @param request what was submitted
 * @param status where it stands
 * @param resume the human input it was resumed with after an interrupt (tool decisions
 * for an agent, the interrupt's answer for a workflow), or {@code null}
 * @param result the result of a completed run, or the interrupt's payload (what the
 * human is asked) of an interrupted one; {@code null} otherwise
 * @param error the error of a failed run; {@code null} otherwise
 * @param attempts how many times a worker claimed it since it was submitted or last
 * resumed (so that a run a person resumed many times still gets every retry)
 * @param cancelRequested whether cancelling was asked for while it ran
 * @param owner the worker holding its lease while it runs, or {@code null}
 * @param leaseExpiresAt when that lease ends unless renewed, or {@code null}
 * @param createdAt when it was submitted
 * @param startedAt when a worker first claimed it, or {@code null}
 * @param finishedAt when it reached a final status, or {@code null}
 * @since 0.1.0
 */
public record Run(String id, RunRequest request, RunStatus status, @Nullable JsonNode resume,
		@Nullable JsonNode result, @Nullable RunError error, int attempts, boolean cancelRequested,
		@Nullable String owner, @Nullable Instant leaseExpiresAt, Instant createdAt, @Nullable Instant startedAt,
		@Nullable Instant finishedAt) {

	public Run {
		Objects.requireNonNull(id, "'id' must not be null");
		Objects.requireNonNull(request, "'request' must not be null");
		Objects.requireNonNull(status, "'status' must not be null");
		Objects.requireNonNull(createdAt, "'createdAt' must not be null");
	}

	public String kind() {
		return this.request.kind();
	}

	public String target() {
		return this.request.target();
	}

	public String sessionId() {
		return this.request.sessionId();
	}

	/**
	 * Why a run failed: a stable code (as {@link dev.agcore.runtime.TurnFailure} gives
	 * them, or {@code deadline_exceeded}, {@code lease_expired}, {@code internal_error})
	 * and a message meant for the caller, never a stack trace.
	 *
	 * @param code the code
	 * @param message the message
	 */
	public record RunError(String code, String message) {

		/** The code of a run whose lease expired after its last allowed claim. */
		public static final String LEASE_EXPIRED = "lease_expired";

		public RunError {
			Objects.requireNonNull(code, "'code' must not be null");
			Objects.requireNonNull(message, "'message' must not be null");
		}

		/**
		 * The error every store writes when a run's lease expired after its last allowed
		 * claim ({@link RunStore.ClaimSettings#maxAttempts()}), the same in every store.
		 * @return the error, {@link #LEASE_EXPIRED}
		 */
		public static RunError leaseExpired() {
			return new RunError(LEASE_EXPIRED, "The run's worker stopped renewing its lease on its last allowed "
					+ "attempt; the run is not tried again");
		}

	}

}
