/**
 * The audit trail: what agents did on whose behalf (tool calls, approval decisions,
 * permission denials, budget refusals) as {@link dev.agcore.audit.AuditEvent}s, with
 * secrets and personal data redacted before anyone is told.
 */
@NullMarked
package dev.agcore.audit;

import org.jspecify.annotations.NullMarked;
