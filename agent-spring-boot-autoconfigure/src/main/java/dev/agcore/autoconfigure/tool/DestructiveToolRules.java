package dev.agcore.autoconfigure.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.middleware.MiddlewareProperties;
import dev.agcore.runtime.Agent;
import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.permission.UnnamedDestructiveToolPolicy;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default policy of destructive tools: an agent calls a destructive tool (a local
 * {@code @Tool(permission = "destructive")}, or an MCP tool that its server does not
 * trustworthily say is read-only or not destructive) only when a rule of the agent names
 * it. The rules that name a tool are {@code permissions.allow-tools},
 * {@code permissions.deny-tools}, {@code permissions.tool-roles} and
 * {@code middleware.human-in-the-loop.tools} (a person approves each call);
 * {@code permissions.allow} with {@code destructive} allows them all. Switched off with
 * {@code agent.tools.deny-unnamed-destructive=false}.
 */
final class DestructiveToolRules {

	private static final Logger logger = LoggerFactory.getLogger(AgentTools.class);

	private final boolean enabled;

	DestructiveToolRules(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The policy of an agent of {@code agent.agents}.
	 * @param spec the agent's properties
	 * @return the policy, or {@code null} when the agent's rules decide on every
	 * destructive tool (they allow or deny {@code destructive}) or the default is switched
	 * off
	 */
	@Nullable UnnamedDestructiveToolPolicy policy(AgentProperties.AgentSpec spec) {
		if (!this.enabled || namesDestructive(spec.getPermissions().getAllow())
				|| namesDestructive(spec.getPermissions().getDeny())) {
			return null;
		}
		ToolPermissionProperties permissions = spec.getPermissions();
		List<String> named = new ArrayList<>();
		named.addAll(permissions.getAllowTools());
		named.addAll(permissions.getDenyTools());
		named.addAll(permissions.getToolRoles().keySet());
		named.addAll(approvalTools(spec.getMiddleware().getHumanInTheLoop()));
		return UnnamedDestructiveToolPolicy
			.naming(named.stream().filter((entry) -> entry != null && !entry.isBlank()).map(String::strip).toList());
	}

	/**
	 * The policy of the agent made when none is configured, which has no rules.
	 * @return the policy, or {@code null} when the default is switched off
	 */
	@Nullable UnnamedDestructiveToolPolicy defaultPolicy() {
		return this.enabled ? UnnamedDestructiveToolPolicy.naming(List.of()) : null;
	}

	/**
	 * Log, once per agent, the tools the policy denies, so that nobody wonders why a tool
	 * is refused. Tools of MCP servers that connect later are decided the same way.
	 * @param agent the agent, built
	 * @param policy its policy
	 * @param prefix the agent's properties, such as {@code agent.agents.librarian}
	 */
	void log(Agent agent, @Nullable UnnamedDestructiveToolPolicy policy, String prefix) {
		if (policy == null) {
			return;
		}
		List<String> denied = policy.denied(agent.toolCallbacks());
		if (!denied.isEmpty()) {
			logger.info("Agent '{}' denies the destructive tools that no rule names: {}; allow them with {}.permissions."
					+ "allow-tools, or ask a person with {}.middleware.human-in-the-loop.tools", agent.name(),
					LogSafe.value(denied), prefix, prefix);
		}
	}

	private static boolean namesDestructive(List<String> permissions) {
		for (String value : permissions) {
			try {
				if (value != null && ToolPermission.of(value).equals(ToolPermission.DESTRUCTIVE)) {
					return true;
				}
			}
			catch (IllegalArgumentException ex) {
				// reported with its property when the rules are built
			}
		}
		return false;
	}

	// the tools of either form: a list (bound as "0", "1"... keys) or a map of name to reason
	private static List<String> approvalTools(MiddlewareProperties.@Nullable HumanInTheLoop approval) {
		if (approval == null || !approval.isEnabled()) {
			return List.of();
		}
		Map<String, String> tools = approval.getTools();
		int index = 0;
		boolean list = !tools.isEmpty();
		for (String key : tools.keySet()) {
			list &= key.equals(String.valueOf(index++));
		}
		return list ? List.copyOf(tools.values()) : List.copyOf(tools.keySet());
	}

}
