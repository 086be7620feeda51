package dev.agcore.observation;

/**
 * How a chain's run ended, as recorded in the {@code outcome} tag of
 * {@code agent.chain.calls}.
 *
 * @since 0.1.0
 */
public enum ChainOutcome {

	/** It emitted its output and completed. */
	SUCCESS("success"),

	/** It failed. */
	ERROR("error"),

	/** Its subscriber cancelled it before it ended, e.g. a client that went away. */
	CANCELLED("cancelled");

	private final String tagValue;

	ChainOutcome(String tagValue) {
		this.tagValue = tagValue;
	}

	public String tagValue() {
		return this.tagValue;
	}

}
