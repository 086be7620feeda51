package dev.agcore.runtime;

import java.math.BigDecimal;

import dev.agcore.model.ConfiguredChatModel;
import dev.agcore.model.ModelCostListener;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import org.jspecify.annotations.Nullable;

/**
 * The cost of one turn: told the cost of each priced model call made in the turn (through
 * the Reactor context), records it as {@code agent.cost} with the agent's name, and adds it
 * to the turn's result.
 */
final class TurnCost implements ModelCostListener {

	private final String agent;

	private final AgentMetrics metrics;

	private @Nullable BigDecimal total;

	TurnCost(String agent, AgentMetrics metrics) {
		this.agent = agent;
		this.metrics = metrics;
	}

	@Override
	public void onCost(ConfiguredChatModel model, Usage usage, BigDecimal cost) {
		// the configured name, never the model string the server reported: bounded tags
		this.metrics.modelCost(this.agent, model.providerName(), model.name(), cost);
		synchronized (this) {
			this.total = (this.total != null) ? this.total.add(cost) : cost;
		}
	}

	/**
	 * Add the cost of a sub-agent's turn, which that turn already recorded under its own
	 * agent's name.
	 */
	synchronized void addNested(BigDecimal cost) {
		this.total = (this.total != null) ? this.total.add(cost) : cost;
	}

	synchronized @Nullable BigDecimal total() {
		return this.total;
	}

	AgentResult addTo(AgentResult result) {
		BigDecimal cost = total();
		return (cost != null) ? result.withCost(cost) : result;
	}

}
