package dev.agcore.autoconfigure.agent;

import java.util.List;

import dev.agcore.audit.Auditor;
import dev.agcore.runtime.CallerResolver;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.AgentUntrustedContentProperties;
import dev.agcore.autoconfigure.budget.AgentBudgets;
import dev.agcore.autoconfigure.prompt.UntrustedContentProperties;
import dev.agcore.budget.BudgetMiddleware;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.UntrustedContent;
import org.jspecify.annotations.Nullable;

/**
 * Gives a configured agent its safeguards: its budget (first among its middleware, so a
 * refused turn does nothing else), its auditor, and its untrusted-content marking.
 */
final class AgentSafeguards {

	private final @Nullable AgentBudgets budgets;

	private final Auditor auditor;

	private final UntrustedContentProperties untrustedContent;

	private final CallerResolver callers;

	AgentSafeguards(@Nullable AgentBudgets budgets, Auditor auditor, UntrustedContentProperties untrustedContent) {
		this(budgets, auditor, untrustedContent, CallerResolver.NONE);
	}

	AgentSafeguards(@Nullable AgentBudgets budgets, Auditor auditor, UntrustedContentProperties untrustedContent,
			CallerResolver callers) {
		this.callers = callers;
		this.budgets = budgets;
		this.auditor = auditor;
		this.untrustedContent = untrustedContent;
	}

	/**
	 * Configure an agent.
	 * @param prefix the agent's properties, {@code agent.agents.<name>}
	 * @param spec the agent's properties, or {@code null} for the default agent
	 * @param builder the agent's builder
	 * @param middleware the agent's middleware, to put the budget first in
	 */
	void configure(String prefix, AgentProperties.@Nullable AgentSpec spec, AgentBuilder builder,
			List<AgentMiddleware> middleware) {
		if (this.budgets != null) {
			BudgetMiddleware budget = this.budgets.middleware(prefix, (spec != null) ? spec.getBudget() : null);
			if (budget != null) {
				middleware.add(0, budget);
			}
		}
		AgentUntrustedContentProperties untrusted = (spec != null) ? spec.getUntrustedContent()
				: new AgentUntrustedContentProperties();
		// who may use a session is decided by the agent itself, on every way in
		builder.callers(this.callers);
		builder.auditor(this.auditor).untrustedContent(untrustedContent(prefix, untrusted, this.untrustedContent));
	}

	/** The marking of an agent: its own settings over {@code agent.untrusted-content.*}. */
	static UntrustedContent untrustedContent(String prefix, AgentUntrustedContentProperties own,
			UntrustedContentProperties global) {
		boolean on = (own.getEnabled() != null) ? own.getEnabled() : global.isEnabled();
		if (!on) {
			return UntrustedContent.DISABLED;
		}
		String property = (own.getTag() != null) ? prefix + ".untrusted-content.tag" : "agent.untrusted-content.tag";
		String tag = (own.getTag() != null) ? own.getTag() : global.getTag();
		try {
			return UntrustedContent.of(tag.strip(), (own.getNotice() != null) ? own.getNotice() : global.getNotice());
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(property + " is '" + tag + "', which is not a valid tag",
					"Use a letter followed by letters, digits, '-' or '_', such as 'untrusted-content'.");
		}
	}

}
