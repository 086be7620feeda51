package dev.agcore.autoconfigure.tool;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties shared by the tools of every agent.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.tools", ignoreUnknownFields = false)
public class ToolProperties {

	/**
	 * Longest tool result sent to the model, in characters. Longer results are cut, with
	 * a note saying how long they were. An agent can override it with
	 * agent.agents.<name>.max-tool-result-length.
	 */
	private int maxResultLength = 65536;

	public int getMaxResultLength() {
		return this.maxResultLength;
	}

	public void setMaxResultLength(int maxResultLength) {
		this.maxResultLength = maxResultLength;
	}

}
