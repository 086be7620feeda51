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

	/**
	 * Whether an agent is denied the destructive tools that none of its rules names. A tool
	 * is destructive when declared so with @Tool(permission = "destructive"), and an MCP
	 * tool unless its server is trusted (agent.mcp.servers.<name>.trusted) and says it is
	 * read-only or not destructive. A rule names a tool in permissions.allow-tools,
	 * deny-tools or tool-roles, or in middleware.human-in-the-loop.tools; permissions.allow
	 * with destructive allows them all.
	 */
	private boolean denyUnnamedDestructive = true;

	public boolean isDenyUnnamedDestructive() {
		return this.denyUnnamedDestructive;
	}

	public void setDenyUnnamedDestructive(boolean denyUnnamedDestructive) {
		this.denyUnnamedDestructive = denyUnnamedDestructive;
	}

	public int getMaxResultLength() {
		return this.maxResultLength;
	}

	public void setMaxResultLength(int maxResultLength) {
		this.maxResultLength = maxResultLength;
	}

}
