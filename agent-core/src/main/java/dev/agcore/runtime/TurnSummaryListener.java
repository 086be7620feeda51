package dev.agcore.runtime;

/**
 * Told about each finished turn of an agent, on the thread that finished it: must be
 * cheap and must not throw.
 *
 * @since 0.1.0
 * @see AgentBuilder#turnSummaryListener(TurnSummaryListener)
 */
@FunctionalInterface
public interface TurnSummaryListener {

	/**
	 * Called once per turn, however it ended.
	 * @param summary what the turn did
	 */
	void onTurnFinished(TurnSummary summary);

}
