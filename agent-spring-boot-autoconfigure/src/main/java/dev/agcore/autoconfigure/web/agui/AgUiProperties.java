package dev.agcore.autoconfigure.web.agui;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the AG-UI route ({@code agent.web.ag-ui.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.web.ag-ui")
public class AgUiProperties {

	/**
	 * Whether to serve the AG-UI route, POST {agent.web.base-path}/{agent}/ag-ui, which runs a
	 * turn from an AG-UI RunAgentInput and streams AG-UI events, so AG-UI clients (CopilotKit
	 * and others) can drive the agents. Needs a reactive web application; secure the route
	 * as any other.
	 */
	private boolean enabled;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
