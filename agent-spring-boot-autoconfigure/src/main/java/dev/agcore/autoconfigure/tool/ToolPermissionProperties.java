package dev.agcore.autoconfigure.tool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tool permissions of one agent, under {@code agent.agents.<name>.permissions},
 * mapped to {@link dev.agcore.tool.permission.ToolPermissionRules}: a denied tool or
 * permission is denied; otherwise, when anything is allowed, only what is allowed runs;
 * otherwise everything does. Deny always wins.
 *
 * @since 0.1.0
 */
public class ToolPermissionProperties {

	/**
	 * Permissions the agent's tools may have: read-only, write, destructive or a custom
	 * "namespace:name". When this or allow-tools is set, every other tool is denied.
	 */
	private List<String> allow = new ArrayList<>();

	/**
	 * Permissions whose tools the agent may not call, whatever is allowed.
	 */
	private List<String> deny = new ArrayList<>();

	/**
	 * Tools (names or globs such as "notes_*") the agent may call whatever their
	 * permission, unless denied.
	 */
	private List<String> allowTools = new ArrayList<>();

	/**
	 * Tools (names or globs such as "admin_*") the agent may not call.
	 */
	private List<String> denyTools = new ArrayList<>();

	/**
	 * Roles a caller needs, any one of them, for the agent to call a tool, by tool name,
	 * glob or group: "refund: [ADMIN]" lets the agent call refund only in turns of a
	 * principal with the authority ROLE_ADMIN (or ADMIN). Denied without a principal.
	 */
	private Map<String, List<String>> toolRoles = new LinkedHashMap<>();

	public Map<String, List<String>> getToolRoles() {
		return this.toolRoles;
	}

	public void setToolRoles(Map<String, List<String>> toolRoles) {
		this.toolRoles = toolRoles;
	}

	public List<String> getAllow() {
		return this.allow;
	}

	public void setAllow(List<String> allow) {
		this.allow = allow;
	}

	public List<String> getDeny() {
		return this.deny;
	}

	public void setDeny(List<String> deny) {
		this.deny = deny;
	}

	public List<String> getAllowTools() {
		return this.allowTools;
	}

	public void setAllowTools(List<String> allowTools) {
		this.allowTools = allowTools;
	}

	public List<String> getDenyTools() {
		return this.denyTools;
	}

	public void setDenyTools(List<String> denyTools) {
		this.denyTools = denyTools;
	}

	/**
	 * Return whether any rule is configured.
	 * @return whether the agent has permission rules
	 */
	public boolean hasRules() {
		return !this.allow.isEmpty() || !this.deny.isEmpty() || !this.allowTools.isEmpty()
				|| !this.denyTools.isEmpty() || !this.toolRoles.isEmpty();
	}

}
