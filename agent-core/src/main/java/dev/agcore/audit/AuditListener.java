package dev.agcore.audit;

/**
 * Told every {@link AuditEvent} of the agents it is given to, on the thread of the turn
 * (a tool's, a resumption's). Implementations must be thread-safe and quick, or hand the
 * event on: a listener that throws is logged and never fails the turn.
 * <pre>
 * Agent.builder().auditListener((event) -&gt; log.info("{} {} {}", event.kind(), event.tool(), event.outcome()))
 * </pre>
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface AuditListener {

	/** Is told nothing. */
	AuditListener NONE = (event) -> {
	};

	/**
	 * Receive an event, already redacted.
	 * @param event the event
	 */
	void onAuditEvent(AuditEvent event);

}
