package dev.agcore.autoconfigure.budget;

import java.util.Locale;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentBudgetProperties;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.budget.Budget;
import dev.agcore.budget.BudgetBuckets;
import dev.agcore.budget.BudgetMiddleware;
import dev.agcore.budget.BudgetScope;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Makes the {@link BudgetMiddleware} of each configured agent from its
 * {@code agent.agents.<name>.budget.*} over {@code agent.budget.*}, all on the same
 * {@link BudgetBuckets}.
 *
 * @since 0.1.0
 */
public final class AgentBudgets {

	private final BudgetProperties defaults;

	private final BudgetBuckets buckets;

	private final @Nullable MeterRegistry meterRegistry;

	private final Auditor auditor;

	public AgentBudgets(BudgetProperties defaults, BudgetBuckets buckets, @Nullable MeterRegistry meterRegistry,
			Auditor auditor) {
		this.defaults = defaults;
		this.buckets = buckets;
		this.meterRegistry = meterRegistry;
		this.auditor = auditor;
	}

	/**
	 * Return the budget middleware of an agent.
	 * @param prefix the agent's properties, {@code agent.agents.<name>}, for errors
	 * @param properties the agent's budget properties, or {@code null} for the defaults only
	 * @return the middleware, or {@code null} when no limit applies to the agent
	 * @throws AgentConfigurationException naming the property at fault
	 */
	public @Nullable BudgetMiddleware middleware(String prefix, @Nullable AgentBudgetProperties properties) {
		AgentBudgetProperties own = (properties != null) ? properties : new AgentBudgetProperties();
		String property = prefix + ".budget";
		Budget budget = new Budget(
				limit(property + ".turns-per-minute", own.getTurnsPerMinute(), this.defaults.getTurnsPerMinute()),
				limit(property + ".tokens-per-day", own.getTokensPerDay(), this.defaults.getTokensPerDay()),
				limit(property + ".tokens-per-month", own.getTokensPerMonth(), this.defaults.getTokensPerMonth()),
				scope((own.getPer() != null) ? property + ".per" : "agent.budget.per",
						(own.getPer() != null) ? own.getPer() : this.defaults.getPer()));
		if (!budget.limits()) {
			return null;
		}
		long outputReservation = this.defaults.getOutputReservation();
		if (outputReservation < 1) {
			throw new AgentConfigurationException(
					"agent.budget.output-reservation must be at least 1 (was " + outputReservation + ")",
					"Set agent.budget.output-reservation to the most tokens a model call may answer, such as the "
							+ "models' max-tokens (default " + BudgetMiddleware.DEFAULT_OUTPUT_RESERVATION + ").");
		}
		return BudgetMiddleware.builder(budget, this.buckets)
			.outputReservation(outputReservation)
			.meterRegistry(this.meterRegistry)
			.auditor(this.auditor)
			.build();
	}

	private static long limit(String agentProperty, @Nullable Long own, long fallback) {
		long value = (own != null) ? own : fallback;
		// the property the value came from: the agent's own, or agent.budget.*
		String property = (own != null) ? agentProperty
				: "agent.budget" + agentProperty.substring(agentProperty.lastIndexOf('.'));
		if (value < 0) {
			throw new AgentConfigurationException(property + " must not be negative (was " + value + ")",
					"Set " + property + " to a positive number, or 0 for no limit.");
		}
		return value;
	}

	static BudgetScope scope(String property, String value) {
		try {
			return BudgetScope.valueOf(value.strip().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(property + " is '" + value + "', which is not a budget scope",
					"Set " + property + " to 'principal' or 'session'.");
		}
	}

}
