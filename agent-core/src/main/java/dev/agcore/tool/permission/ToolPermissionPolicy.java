package dev.agcore.tool.permission;

import dev.agcore.message.ToolCall;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;

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

	/**
	 * Decide on a call knowing its context: the session, the user and the authenticated
	 * {@linkplain ToolContext#principal() principal} with its authorities, so a tool can be
	 * allowed to one role and not another. The agent asks this method; by default it
	 * decides as {@link #decide(String, ToolCallback, ToolCall)} does.
	 * @param agentName the agent making the call
	 * @param tool the tool
	 * @param call the call
	 * @param context the call's runtime values
	 * @return the decision
	 */
	default PermissionDecision decide(String agentName, ToolCallback tool, ToolCall call, ToolContext context) {
		return decide(agentName, tool, call);
	}

}
