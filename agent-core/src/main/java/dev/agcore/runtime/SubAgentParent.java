package dev.agcore.runtime;

import java.math.BigDecimal;

import dev.agcore.message.ToolCall;
import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;

/**
 * The turn a tool call runs in, as a {@link SubAgentTool} sees it: how deep in sub-agents
 * it is, where the sub-agent's events go when the turn is streamed, and where its usage
 * and cost are added. Built by the {@link ToolRunner} for each call; thread-safe, as the
 * tool reports from its own thread.
 */
final class SubAgentParent implements NestedEvents {

	/** The parent of a sub-agent tool called outside an agent: depth 0, nothing nested. */
	static final SubAgentParent NONE = new SubAgentParent(null, null, TurnListener.NONE, null, 0);

	private final @Nullable ToolCall call;

	private final @Nullable Turn turn;

	private final TurnListener listener;

	private final @Nullable TurnCost cost;

	private final int depth;

	SubAgentParent(@Nullable ToolCall call, @Nullable Turn turn, TurnListener listener, @Nullable TurnCost cost,
			int depth) {
		this.call = call;
		this.turn = turn;
		this.listener = listener;
		this.cost = cost;
		this.depth = depth;
	}

	/** How many sub-agents deep the calling turn is: 0 for a turn a caller started. */
	int depth() {
		return this.depth;
	}

	/** Whether the calling turn is streamed, so the sub-agent's turn should be too. */
	@Override
	public boolean streaming() {
		return this.call != null && this.listener.streaming();
	}

	/** Pass on an event of the sub-agent's stream. */
	@Override
	public void event(String agent, AgentEvent event) {
		if (this.call != null) {
			this.listener.onSubAgentEvent(this.call, agent, event);
		}
	}

	/** Add the sub-agent turn's tokens and cost to the calling turn. */
	void used(Usage usage, @Nullable BigDecimal cost) {
		if (this.turn != null && !usage.isEmpty()) {
			this.turn.addNestedUsage(usage);
		}
		if (this.cost != null && cost != null) {
			this.cost.addNested(cost);
		}
	}

}
