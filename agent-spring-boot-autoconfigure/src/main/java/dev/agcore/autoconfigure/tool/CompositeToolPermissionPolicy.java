package dev.agcore.autoconfigure.tool;

import java.util.List;

import dev.agcore.message.ToolCall;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.permission.ToolPermissionPolicy;

/**
 * Asks several policies in turn: a call is allowed only if every one allows it, and the
 * first denial is the answer.
 */
final class CompositeToolPermissionPolicy implements ToolPermissionPolicy {

	private final List<ToolPermissionPolicy> policies;

	private CompositeToolPermissionPolicy(List<ToolPermissionPolicy> policies) {
		this.policies = policies;
	}

	static ToolPermissionPolicy of(List<ToolPermissionPolicy> policies) {
		return switch (policies.size()) {
			case 0 -> ToolPermissionPolicy.ALLOW_ALL;
			case 1 -> policies.get(0);
			default -> new CompositeToolPermissionPolicy(List.copyOf(policies));
		};
	}

	@Override
	public PermissionDecision decide(String agentName, ToolCallback tool, ToolCall call) {
		for (ToolPermissionPolicy policy : this.policies) {
			PermissionDecision decision = policy.decide(agentName, tool, call);
			if (!decision.allowed()) {
				return decision;
			}
		}
		return PermissionDecision.allow();
	}

	@Override
	public PermissionDecision decide(String agentName, ToolCallback tool, ToolCall call, ToolContext context) {
		for (ToolPermissionPolicy policy : this.policies) {
			PermissionDecision decision = policy.decide(agentName, tool, call, context);
			if (!decision.allowed()) {
				return decision;
			}
		}
		return PermissionDecision.allow();
	}

	@Override
	public String toString() {
		return "all of " + this.policies;
	}

}
