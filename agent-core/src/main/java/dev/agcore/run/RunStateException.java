package dev.agcore.run;

/**
 * A change to a run that its status does not allow, such as resuming a run that is not
 * interrupted. The message says the run's status.
 *
 * @since 0.1.0
 */
public class RunStateException extends RuntimeException {

	/** The error code of the HTTP API. */
	public static final String CODE = "run_conflict";

	public RunStateException(String message) {
		super(message);
	}

}
