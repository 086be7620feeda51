package dev.agcore.audit;

import org.jspecify.annotations.Nullable;

/**
 * Says whether the audit trail can take the record of one more action. Asked before a
 * tool runs: an action the trail could not record does not happen. Refusals (a denied
 * call, a budget or access refusal) are recorded whatever the gate says, since they
 * change nothing.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface AuditGate {

	/** Always open. */
	AuditGate OPEN = () -> null;

	/**
	 * Return why no new action may run now, or {@code null} when actions may run.
	 * @return the reason, for the caller's error; or {@code null}
	 */
	@Nullable String refusal();

}
