package dev.agcore.autoconfigure.audit;

import dev.agcore.audit.AuditEvent;

import org.springframework.context.ApplicationEvent;

/**
 * An {@link AuditEvent} published to the application context: what an agent did (a tool
 * call, an approval decision) or was refused (a permission denial, a budget refusal), on
 * whose behalf, already redacted. Listen with {@code @EventListener}; listeners run on the
 * turn's thread, so one that does I/O should be {@code @Async}.
 *
 * @since 0.1.0
 */
public class AgentAuditEvent extends ApplicationEvent {

	private final AuditEvent event;

	public AgentAuditEvent(Object source, AuditEvent event) {
		super(source);
		this.event = event;
	}

	/**
	 * Return what happened.
	 * @return the audit event
	 */
	public AuditEvent event() {
		return this.event;
	}

	@Override
	public String toString() {
		return "AgentAuditEvent[" + this.event + "]";
	}

}
