package dev.agcore.docs.middleware;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;

/** The audit middleware docs/middleware.md registers as a bean. */
class AuditMiddleware implements AgentMiddleware {

	private final AuditLog log;

	AuditMiddleware(AuditLog log) {
		this.log = log;
	}

	@Override
	public void afterAgent(AgentContext context, List<Message> messages) {
		this.log.entries().add(context.sessionId());
	}

	/** Where the audit entries go. */
	record AuditLog(List<String> entries) {
	}

}
