package dev.agcore.autoconfigure.tool;

import java.time.Duration;
import java.util.List;

/**
 * What the auto-configuration gave a configured agent on the tools side, for the
 * {@code agents} actuator endpoint.
 *
 * @param scope the agent's tool scope entries; {@code ["*"]} for all tools
 * @param permissionPolicy a description of the agent's permission policy
 * @param toolTimeout how long a tool call may run unless the tool says otherwise
 * @param maxToolResultLength the longest tool result sent to the model, in characters
 * @since 0.1.0
 */
public record AgentToolSettings(List<String> scope, String permissionPolicy, Duration toolTimeout,
		int maxToolResultLength) {

	public AgentToolSettings {
		scope = List.copyOf(scope);
	}

}
