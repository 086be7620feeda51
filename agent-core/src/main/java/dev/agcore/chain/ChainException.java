package dev.agcore.chain;

import dev.agcore.AgentException;

/**
 * A chain could not run as composed: a step completed without the value the next one
 * needs, or no chain has the name looked up. Failures of a step's own work are never
 * wrapped in it; they propagate as the step raised them.
 *
 * @since 0.1.0
 */
public class ChainException extends AgentException {

	public ChainException(String message) {
		super(message);
	}

	static ChainException empty(String step) {
		return new ChainException("Chain step '" + step + "' completed without a value");
	}

}
