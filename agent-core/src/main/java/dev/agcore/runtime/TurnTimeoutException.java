package dev.agcore.runtime;

import java.time.Duration;

import dev.agcore.AgentException;

/**
 * A turn ran longer than its agent's turn timeout and was cancelled: nothing of it was
 * stored, and a resumed turn can be resumed again (with the results of the decided calls
 * that ran).
 */
public class TurnTimeoutException extends AgentException {

	private final String agentName;

	private final Duration timeout;

	public TurnTimeoutException(String agentName, Duration timeout) {
		super("Agent '" + agentName + "' did not finish the turn within its turn timeout of " + timeout
				+ "; nothing was stored");
		this.agentName = agentName;
		this.timeout = timeout;
	}

	/**
	 * Return the agent whose turn timed out.
	 * @return the agent's name
	 */
	public String agentName() {
		return this.agentName;
	}

	/**
	 * Return the turn timeout that was exceeded.
	 * @return the timeout
	 */
	public Duration timeout() {
		return this.timeout;
	}

}
