/**
 * A durable outbox for audit events: a journal on the local disk, forced on each append,
 * drained to an {@link dev.agcore.audit.AuditSink} with retries, bounded.
 */
@NullMarked
package dev.agcore.audit.outbox;

import org.jspecify.annotations.NullMarked;
