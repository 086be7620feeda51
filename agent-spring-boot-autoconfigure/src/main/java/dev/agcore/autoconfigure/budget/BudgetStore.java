package dev.agcore.autoconfigure.budget;

import java.util.Locale;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Where budgets are counted: {@code agent.budget.store}, or with {@code auto} (the
 * default) the store of {@code agent.memory.store}.
 */
final class BudgetStore {

	static final String IN_MEMORY = "in-memory";

	static final String REDIS = "redis";

	static final String JDBC = "jdbc";

	private BudgetStore() {
	}

	static String resolve(String budgetStore, String memoryStore) {
		String store = budgetStore.strip().toLowerCase(Locale.ROOT).replace('_', '-');
		if (!"auto".equals(store)) {
			return store;
		}
		String memory = memoryStore.strip().toLowerCase(Locale.ROOT).replace('_', '-');
		return (REDIS.equals(memory) || JDBC.equals(memory)) ? memory : IN_MEMORY;
	}

	private static String resolve(ConditionContext context) {
		return resolve(context.getEnvironment().getProperty("agent.budget.store", "auto"),
				context.getEnvironment().getProperty("agent.memory.store", IN_MEMORY));
	}

	/** Budgets are counted in Redis. */
	static final class OnRedis implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return REDIS.equals(resolve(context));
		}

	}

	/** Budgets are counted in the database. */
	static final class OnJdbc implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return JDBC.equals(resolve(context));
		}

	}

}
