package dev.agcore.run;

import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * How a worker's execution of a run ended, written by {@link RunStore#finish}.
 *
 * @param status {@link RunStatus#COMPLETED}, {@link RunStatus#FAILED},
 * {@link RunStatus#CANCELLED} or {@link RunStatus#INTERRUPTED}
 * @param result the result, or the interrupt's payload; {@code null} for none
 * @param error why it failed; only for {@link RunStatus#FAILED}
 * @since 0.1.0
 */
public record RunOutcome(RunStatus status, @Nullable JsonNode result, Run.@Nullable RunError error) {

	public RunOutcome {
		Objects.requireNonNull(status, "'status' must not be null");
		if (status == RunStatus.QUEUED || status == RunStatus.RUNNING) {
			throw new IllegalArgumentException("An outcome is final or interrupted, not " + status);
		}
		if ((status == RunStatus.FAILED) != (error != null)) {
			throw new IllegalArgumentException("A failed outcome, and only one, has an error");
		}
	}

	public static RunOutcome completed(@Nullable JsonNode result) {
		return new RunOutcome(RunStatus.COMPLETED, result, null);
	}

	public static RunOutcome interrupted(@Nullable JsonNode payload) {
		return new RunOutcome(RunStatus.INTERRUPTED, payload, null);
	}

	public static RunOutcome failed(String code, String message) {
		return new RunOutcome(RunStatus.FAILED, null, new Run.RunError(code, message));
	}

	public static RunOutcome cancelled() {
		return new RunOutcome(RunStatus.CANCELLED, null, null);
	}

}
