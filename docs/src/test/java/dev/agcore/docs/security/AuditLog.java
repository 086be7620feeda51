package dev.agcore.docs.security;

import dev.agcore.audit.AuditEvent;
import dev.agcore.autoconfigure.audit.AgentAuditEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

// tag::listener[]
@Component
class AuditLog {

	private static final Logger log = LoggerFactory.getLogger(AuditLog.class);

	@EventListener
	void on(AgentAuditEvent audit) {
		AuditEvent event = audit.event();
		log.info("{} {} {} by {}: {}", event.agent(), event.kind(), event.tool(), event.userId(), event.outcome());
	}

}
// end::listener[]
