package dev.agcore.tool.permission;

import java.util.Collection;
import java.util.List;

import dev.agcore.message.ToolCall;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolScope;

/**
 * Denies calls of {@link ToolPermission#DESTRUCTIVE destructive} tools that no rule of
 * the agent names, and allows every other call. A destructive tool is one that may delete
 * things or do what cannot be undone: an application's own
 * {@code @Tool(permission = "destructive")}, and, as the MCP specification's defaults
 * have it, every tool of an MCP server that does not say otherwise (or whose server is not
 * trusted). Such a tool should run only because someone decided it may: a permission
 * rule that allows it or denies it, a role it is restricted to, or a human who approves
 * each call. The Spring Boot starter asks this policy for every agent whose permissions
 * do not allow {@code destructive} as a whole, with the tools its rules name.
 * Immutable.
 *
 * @since 0.1.0
 */
public final class UnnamedDestructiveToolPolicy implements ToolPermissionPolicy {

	private final ToolScope named;

	private UnnamedDestructiveToolPolicy(ToolScope named) {
		this.named = named;
	}

	/**
	 * Deny the destructive tools that none of these entries names.
	 * @param named the tools the agent's rules name: names, globs, groups and
	 * {@code mcp:<server>/<tool>} entries, as a {@link ToolScope} takes them
	 * @return the policy
	 */
	public static UnnamedDestructiveToolPolicy naming(Collection<String> named) {
		return new UnnamedDestructiveToolPolicy(named.isEmpty() ? ToolScope.none() : ToolScope.of(named));
	}

	/**
	 * Whether this policy denies a tool: it is destructive and no rule names it.
	 * @param tool the tool
	 * @return whether its calls are denied
	 */
	public boolean denies(ToolCallback tool) {
		return ToolPermission.DESTRUCTIVE.equals(tool.metadata().permission()) && !this.named.includes(tool);
	}

	/**
	 * The names of the tools among these that this policy denies, for the startup log.
	 * @param tools the agent's tools
	 * @return the names of those denied, in order
	 */
	public List<String> denied(Collection<ToolCallback> tools) {
		return tools.stream().filter(this::denies).map((tool) -> tool.spec().name()).toList();
	}

	@Override
	public PermissionDecision decide(String agentName, ToolCallback tool, ToolCall call) {
		if (denies(tool)) {
			return PermissionDecision.deny("tool '" + tool.spec().name() + "' is destructive and no rule of agent '"
					+ agentName + "' allows it");
		}
		return PermissionDecision.allow();
	}

	@Override
	public String toString() {
		return this.named.entries().isEmpty() ? "deny destructive tools"
				: "deny destructive tools but " + this.named.entries();
	}

}
