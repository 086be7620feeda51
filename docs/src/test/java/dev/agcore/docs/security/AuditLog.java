package dev.agcore.docs.security;

// tag::listener[]
import dev.agcore.audit.AuditEvent;
import dev.agcore.autoconfigure.audit.AgentAuditEvent;
import dev.agcore.support.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

@Component
class AuditLog {

	private static final Logger log = LoggerFactory.getLogger(AuditLog.class);

	@EventListener
	void on(AgentAuditEvent audit) {
		AuditEvent event = audit.event();
		// names and ids come from callers and the model: escaped, so no one forges a log line
		log.info("{} {} {} by {}: {}", LogSafe.text(event.agent()), event.kind(), LogSafe.text(event.tool()),
				LogSafe.text(event.userId()), event.outcome());
	}

}
// end::listener[]
