package dev.agcore.docs.security;

// tag::auditor[]
import java.util.List;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolCallback;

final class AuditedAgent {

	static Agent audited(ChatModel model, List<ToolCallback> tools, List<AuditEvent> auditLog) {
		return Agent.builder()
			.name("support")
			.model(model)
			.tools(tools)
			.auditor(Auditor.of((event) -> auditLog.add(event)))
			.build();
	}

}
// end::auditor[]
