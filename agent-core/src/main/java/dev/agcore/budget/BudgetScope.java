package dev.agcore.budget;

/**
 * Whose use a budget counts.
 *
 * @since 0.1.0
 */
public enum BudgetScope {

	/**
	 * Each principal ({@code AgentRequest.userId()}) has its own budget, whatever
	 * sessions it uses; a turn without a principal (anonymous) is counted per session.
	 */
	PRINCIPAL,

	/** Each session has its own budget. */
	SESSION

}
