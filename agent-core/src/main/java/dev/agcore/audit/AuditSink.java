package dev.agcore.audit;

import java.util.List;

/**
 * Where audit events are kept for good, such as a database table. An
 * {@link dev.agcore.audit.outbox.AuditOutbox} hands it the events it journaled, in
 * order, and hands them again when it cannot tell whether a write took effect (the
 * connection broke before the commit was confirmed, the process crashed before it noted
 * the write). A sink must therefore keep an event it already holds once: writing an
 * event whose {@link AuditEvent#id() id} is stored changes nothing.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface AuditSink {

	/**
	 * Store events, all of them or none, on the calling thread (which may block).
	 * @param events the events, oldest first
	 * @throws AuditSinkException if they could not all be stored; the caller tries again
	 * later
	 */
	void store(List<AuditEvent> events);

}
