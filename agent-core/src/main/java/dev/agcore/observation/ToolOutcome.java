package dev.agcore.observation;

/**
 * How a tool call ended, as recorded in the {@code outcome} tag of {@code agent.tool.calls}.
 */
public enum ToolOutcome {

	SUCCESS("success"), ERROR("error"), TIMEOUT("timeout"), DENIED("denied");

	private final String tagValue;

	ToolOutcome(String tagValue) {
		this.tagValue = tagValue;
	}

	public String tagValue() {
		return this.tagValue;
	}

}
