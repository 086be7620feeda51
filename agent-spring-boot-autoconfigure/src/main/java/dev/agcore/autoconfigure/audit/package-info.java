/**
 * Auto-configuration of the audit trail ({@code agent.audit.*}): audit events published
 * as Spring application events, to {@link dev.agcore.audit.AuditListener} beans, and
 * optionally written to the database.
 */
@NullMarked
package dev.agcore.autoconfigure.audit;

import org.jspecify.annotations.NullMarked;
