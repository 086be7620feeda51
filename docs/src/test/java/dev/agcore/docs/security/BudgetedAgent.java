package dev.agcore.docs.security;

// tag::budget[]
import dev.agcore.budget.Budget;
import dev.agcore.budget.BudgetMiddleware;
import dev.agcore.budget.BudgetScope;
import dev.agcore.budget.LocalBudgetBuckets;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;

final class BudgetedAgent {

	static Agent budgeted(ChatModel model) {
		return Agent.builder()
			.name("support")
			.model(model)
			.middleware(BudgetMiddleware.builder(new Budget(10, 200_000, 0, BudgetScope.PRINCIPAL),
					new LocalBudgetBuckets()).build())
			.build();
	}

}
// end::budget[]
