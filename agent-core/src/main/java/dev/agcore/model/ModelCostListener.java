package dev.agcore.model;

import java.math.BigDecimal;

/**
 * Told the cost of each call of a {@link ConfiguredChatModel} with a price. The runtime
 * puts one in the Reactor context of every turn under {@link #CONTEXT_KEY}, so that calls
 * of any model in the turn — the agent's, a fallback's, a summarizer's — are counted for
 * the turn and recorded with the agent's name.
 */
@FunctionalInterface
public interface ModelCostListener {

	/** The Reactor context key of the listener. */
	Object CONTEXT_KEY = ModelCostListener.class;

	/**
	 * Called after each priced call that reported usage.
	 * @param model the model that was called
	 * @param usage the tokens the call consumed
	 * @param cost its cost at the model's price
	 */
	void onCost(ConfiguredChatModel model, Usage usage, BigDecimal cost);

}
