package dev.agcore.audit;

/**
 * Thrown by an {@link AuditSink} that could not store events. An outage (the database
 * cannot be reached) is worth retrying as it is; a rejection (the database refused the
 * rows) is retried one event at a time, so that one bad event cannot hold back the rest.
 *
 * @since 0.1.0
 */
public class AuditSinkException extends RuntimeException {

	private final boolean outage;

	/**
	 * Create an exception.
	 * @param message what failed, without the events' content
	 * @param outage whether the sink could not be reached, rather than refusing the events
	 * @param cause the cause
	 */
	public AuditSinkException(String message, boolean outage, Throwable cause) {
		super(message, cause);
		this.outage = outage;
	}

	/**
	 * Return whether the sink could not be reached, as opposed to refusing the events.
	 * @return whether this is an outage
	 */
	public boolean isOutage() {
		return this.outage;
	}

}
