package dev.agcore.tool.permission;

import dev.agcore.message.ToolCall;
import dev.agcore.tool.ToolCallback;

/**
 * Decides, before a tool runs, whether an agent may make the call. A denied call never
 * runs: the model is told it was denied and why, and metrics record it with outcome
 * {@code denied}. Implementations are thread-safe and fast; they run on every call.
 *
 * @see ToolPermissionRules
 */
@FunctionalInterface
public interface ToolPermissionPolicy {

	/** Allows every call. */
	ToolPermissionPolicy ALLOW_ALL = (agentName, tool, call) -> PermissionDecision.allow();

	/**
	 * Decide on a call.
	 * @param agentName the agent making the call
	 * @param tool the tool, with its {@linkplain ToolCallback#metadata() permission}
	 * @param call the call, with its arguments as the model sent them (secret references
	 * unresolved)
	 * @return the decision
	 */
	PermissionDecision decide(String agentName, ToolCallback tool, ToolCall call);

}
