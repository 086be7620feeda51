package dev.agcore.run;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A run to queue.
 *
 * @param kind what executes it: {@code agent} or {@code workflow} (the
 * {@link RunExecutor#kind() kind} of an executor)
 * @param target the agent or workflow, by name
 * @param sessionId the session the run belongs to; runs are listed per session
 * @param input the input of the run, as its executor reads it (for an agent
 * {@code {"message": "..."}})
 * @param userId the user who asked for it, or {@code null}
 * @param notBefore the earliest time it may start, or {@code null} for now
 * @param deadline how long it may run once started, or {@code null} for the worker's
 * default
 * @param idempotencyKey a key that makes submitting twice queue one run: a second submit
 * with the same key answers the run queued first; {@code null} for none
 * @since 0.1.0
 */
public record RunRequest(String kind, String target, String sessionId, JsonNode input, @Nullable String userId,
		@Nullable Instant notBefore, @Nullable Duration deadline, @Nullable String idempotencyKey) {

	/** The longest idempotency key, kind or target name accepted. */
	public static final int MAX_KEY_LENGTH = 200;

	public RunRequest {
		requireText(kind, "kind");
		requireText(target, "target");
		requireText(sessionId, "sessionId");
		Objects.requireNonNull(input, "'input' must not be null");
		if (deadline != null && (deadline.isZero() || deadline.isNegative())) {
			throw new IllegalArgumentException("'deadline' must be positive, was " + deadline);
		}
		if (idempotencyKey != null) {
			requireText(idempotencyKey, "idempotencyKey");
		}
	}

	/**
	 * A run to start now with the worker's default deadline.
	 * @param kind the executor's kind
	 * @param target the agent or workflow
	 * @param sessionId the session
	 * @param input the input
	 * @return the request
	 */
	public static RunRequest of(String kind, String target, String sessionId, JsonNode input) {
		return new RunRequest(kind, target, sessionId, input, null, null, null, null);
	}

	public RunRequest withUserId(@Nullable String userId) {
		return new RunRequest(this.kind, this.target, this.sessionId, this.input, userId, this.notBefore,
				this.deadline, this.idempotencyKey);
	}

	public RunRequest withNotBefore(@Nullable Instant notBefore) {
		return new RunRequest(this.kind, this.target, this.sessionId, this.input, this.userId, notBefore,
				this.deadline, this.idempotencyKey);
	}

	public RunRequest withDeadline(@Nullable Duration deadline) {
		return new RunRequest(this.kind, this.target, this.sessionId, this.input, this.userId, this.notBefore,
				deadline, this.idempotencyKey);
	}

	public RunRequest withIdempotencyKey(@Nullable String idempotencyKey) {
		return new RunRequest(this.kind, this.target, this.sessionId, this.input, this.userId, this.notBefore,
				this.deadline, idempotencyKey);
	}

	private static void requireText(@Nullable String value, String name) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException("'" + name + "' must not be blank");
		}
		int max = name.equals("sessionId") ? dev.agcore.runtime.AgentRequest.MAX_SESSION_ID_LENGTH : MAX_KEY_LENGTH;
		if (value.length() > max) {
			throw new IllegalArgumentException(
					"'" + name + "' must be at most " + max + " characters, was " + value.length());
		}
	}

}
