package dev.agcore.run;

/**
 * No run has the given id (or it was purged).
 *
 * @since 0.1.0
 */
public class RunNotFoundException extends RuntimeException {

	public RunNotFoundException(String runId) {
		super("No run with id '" + runId + "'");
	}

}
