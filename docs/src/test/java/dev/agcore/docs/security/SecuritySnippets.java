package dev.agcore.docs.security;

import java.util.List;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.budget.Budget;
import dev.agcore.budget.BudgetMiddleware;
import dev.agcore.budget.BudgetScope;
import dev.agcore.budget.LocalBudgetBuckets;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolCallback;

/**
 * The snippets of docs/security.md that build agents without Spring Boot.
 */
final class SecuritySnippets {

	private SecuritySnippets() {
	}

	static Agent budgeted(ChatModel model) {
		// tag::budget[]
		Agent agent = Agent.builder()
			.name("support")
			.model(model)
			.middleware(BudgetMiddleware.builder(new Budget(10, 200_000, 0, BudgetScope.PRINCIPAL),
					new LocalBudgetBuckets()).build())
			.build();
		// end::budget[]
		return agent;
	}

	static Agent audited(ChatModel model, List<ToolCallback> tools, List<AuditEvent> auditLog) {
		// tag::auditor[]
		Agent agent = Agent.builder()
			.name("support")
			.model(model)
			.tools(tools)
			.auditor(Auditor.of((event) -> auditLog.add(event)))
			.build();
		// end::auditor[]
		return agent;
	}

}
