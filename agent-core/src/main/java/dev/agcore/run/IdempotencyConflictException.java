package dev.agcore.run;

/**
 * A run was submitted with an idempotency key that the same caller already used for the
 * same kind and target with a different request: the key cannot stand for two requests,
 * so nothing is queued. The message never names the run the key stands for.
 *
 * @since 0.1.0
 */
public class IdempotencyConflictException extends RuntimeException {

	/** The error code of the HTTP API (answered with 409). */
	public static final String CODE = "idempotency_conflict";

	public IdempotencyConflictException() {
		super("This idempotency key was already used with a different request; use a new key for a new request, "
				+ "or send the same request again to get its run");
	}

}
