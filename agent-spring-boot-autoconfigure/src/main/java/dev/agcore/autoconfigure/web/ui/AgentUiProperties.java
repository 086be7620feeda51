package dev.agcore.autoconfigure.web.ui;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the agent chat page ({@code agent.web.ui.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.web.ui")
public class AgentUiProperties {

	/**
	 * Whether to serve the chat page at {agent.web.base-path}/ui. A developer tool: anyone
	 * who can open it can talk to every agent, approve their tool calls and list or delete
	 * any user's sessions, so keep it off unless the route is secured. Needs
	 * agent.web.enabled=true.
	 */
	private boolean enabled;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
