package dev.agcore.runtime;

import org.jspecify.annotations.Nullable;

/**
 * What one run of a turn (an invocation, a stream or a resumption) carries from its
 * subscription to its end besides the conversation: its deadline, its cost and its log.
 * The {@link Turn} holds it, so the loop reaches them without a Reactor context lookup
 * per model or tool call.
 */
final class TurnScope {

	private final TurnDeadline deadline = new TurnDeadline();

	private final TurnCost cost;

	private final @Nullable TurnLog log;

	/** The new turn once it exists, for the count of its model calls; null for a resumption. */
	private volatile @Nullable Turn counted;

	TurnScope(TurnCost cost, @Nullable TurnLog log) {
		this.cost = cost;
		this.log = log;
	}

	TurnDeadline deadline() {
		return this.deadline;
	}

	TurnCost cost() {
		return this.cost;
	}

	/** The turn's log, or null when nothing reads it (see {@link TurnLog#start}). */
	@Nullable TurnLog log() {
		return this.log;
	}

	/** Count the model calls of this new turn in the turn's metrics. */
	void count(Turn turn) {
		this.counted = turn;
	}

	/** The model calls of the counted turn, or -1 when none is counted. */
	int modelCalls() {
		Turn turn = this.counted;
		return (turn != null) ? turn.modelCalls() : -1;
	}

}
