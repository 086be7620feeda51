package dev.agcore.tool.permission;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.agcore.AgentPrincipal;
import dev.agcore.message.ToolCall;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolScope;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ToolPermissionPolicy} from allow and deny rules, by permission and by tool
 * name (names and globs such as {@code notes_*}):
 * <ol>
 * <li>a call whose tool or permission is denied is denied;</li>
 * <li>otherwise, if there are allow rules, a call is allowed only if its tool or its
 * permission is allowed;</li>
 * <li>otherwise it is allowed.</li>
 * </ol>
 * Deny always wins. On top of these, a tool may {@linkplain Builder#requireRoles require
 * roles} of the caller: a call of it is denied unless the call's
 * {@linkplain ToolContext#principal() principal} has one of them
 * ({@link AgentPrincipal#hasAnyRole}), and always when the call has no principal.
 * Immutable.
 */
public final class ToolPermissionRules implements ToolPermissionPolicy {

	private final Set<ToolPermission> allowedPermissions;

	private final Set<ToolPermission> deniedPermissions;

	private final ToolScope allowedTools;

	private final ToolScope deniedTools;

	private final Map<ToolScope, List<String>> requiredRoles;

	private ToolPermissionRules(Builder builder) {
		Map<ToolScope, List<String>> roles = new LinkedHashMap<>();
		builder.requiredRoles.forEach((tools, required) -> roles.put(ToolScope.of(tools), List.copyOf(required)));
		this.requiredRoles = roles;
		this.allowedPermissions = Set.copyOf(builder.allowedPermissions);
		this.deniedPermissions = Set.copyOf(builder.deniedPermissions);
		this.allowedTools = ToolScope.of(builder.allowedTools);
		this.deniedTools = ToolScope.of(builder.deniedTools);
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public PermissionDecision decide(String agentName, ToolCallback tool, ToolCall call) {
		PermissionDecision rules = decideRules(agentName, tool);
		if (!rules.allowed() || requiredRoles(tool) == null) {
			return rules;
		}
		// without the call's principal the roles cannot be checked
		return PermissionDecision.deny("tool '" + tool.spec().name() + "' is restricted to some roles");
	}

	@Override
	public PermissionDecision decide(String agentName, ToolCallback tool, ToolCall call, ToolContext context) {
		PermissionDecision rules = decideRules(agentName, tool);
		List<String> roles = requiredRoles(tool);
		if (!rules.allowed() || roles == null) {
			return rules;
		}
		AgentPrincipal principal = context.principal();
		if (principal == null || !principal.hasAnyRole(roles)) {
			// the model learns which roles, not who the caller is
			return PermissionDecision.deny("tool '" + tool.spec().name() + "' needs one of the roles " + roles
					+ ", which the caller does not have");
		}
		return PermissionDecision.allow();
	}

	private PermissionDecision decideRules(String agentName, ToolCallback tool) {
		ToolPermission permission = tool.metadata().permission();
		if (this.deniedTools.includes(tool)) {
			return PermissionDecision.deny("agent '" + agentName + "' may not use this tool");
		}
		if (this.deniedPermissions.contains(permission)) {
			return PermissionDecision.deny("agent '" + agentName + "' may not use tools with permission '"
					+ permission + "'");
		}
		boolean hasAllowRules = !this.allowedPermissions.isEmpty() || !this.allowedTools.entries().isEmpty();
		if (hasAllowRules && !this.allowedPermissions.contains(permission) && !this.allowedTools.includes(tool)) {
			return PermissionDecision.deny("agent '" + agentName + "' is not allowed tools with permission '"
					+ permission + "'");
		}
		return PermissionDecision.allow();
	}

	// the roles of the first requirement whose tools include this one
	private @Nullable List<String> requiredRoles(ToolCallback tool) {
		for (Map.Entry<ToolScope, List<String>> entry : this.requiredRoles.entrySet()) {
			if (entry.getKey().includes(tool)) {
				return entry.getValue();
			}
		}
		return null;
	}

	@Override
	public String toString() {
		return "ToolPermissionRules [allow permissions " + this.allowedPermissions + ", tools "
				+ this.allowedTools.entries() + "; deny permissions " + this.deniedPermissions + ", tools "
				+ this.deniedTools.entries() + (this.requiredRoles.isEmpty() ? "" : "; roles " + rolesText()) + "]";
	}

	private String rolesText() {
		Map<List<String>, List<String>> text = new LinkedHashMap<>();
		this.requiredRoles.forEach((tools, roles) -> text.put(tools.entries(), roles));
		return text.toString();
	}

	/**
	 * Builds {@link ToolPermissionRules}.
	 */
	public static final class Builder {

		private final Set<ToolPermission> allowedPermissions = new LinkedHashSet<>();

		private final Set<ToolPermission> deniedPermissions = new LinkedHashSet<>();

		private final List<String> allowedTools = new ArrayList<>();

		private final List<String> deniedTools = new ArrayList<>();

		private final Map<String, List<String>> requiredRoles = new LinkedHashMap<>();

		private Builder() {
		}

		/**
		 * Let only callers with one of these roles call these tools: a call without a
		 * principal, or whose principal has none of the roles, is denied. A role
		 * {@code ADMIN} is granted by the authority {@code ROLE_ADMIN} or {@code ADMIN}.
		 * @param tools a tool name, glob or group
		 * @param roles the roles, at least one
		 * @return this builder
		 */
		public Builder requireRoles(String tools, Collection<String> roles) {
			Objects.requireNonNull(tools, "'tools' must not be null");
			List<String> required = roles.stream()
				.map((role) -> Objects.requireNonNull(role, "'roles' must not contain null").strip())
				.toList();
			if (required.isEmpty() || required.stream().anyMatch(String::isEmpty)) {
				throw new IllegalArgumentException("'roles' of '" + tools + "' must be non-empty names, was " + roles);
			}
			this.requiredRoles.put(tools.strip(), required);
			return this;
		}

		/**
		 * Allow tools with these permissions (and only those, unless allowed by name).
		 * @param permissions the permissions, as {@link ToolPermission#of} parses them
		 * @return this builder
		 */
		public Builder allowPermissions(Collection<String> permissions) {
			permissions.forEach((permission) -> this.allowedPermissions.add(ToolPermission.of(permission)));
			return this;
		}

		public Builder allowPermissions(ToolPermission... permissions) {
			this.allowedPermissions.addAll(List.of(permissions));
			return this;
		}

		/**
		 * Deny tools with these permissions.
		 * @param permissions the permissions, as {@link ToolPermission#of} parses them
		 * @return this builder
		 */
		public Builder denyPermissions(Collection<String> permissions) {
			permissions.forEach((permission) -> this.deniedPermissions.add(ToolPermission.of(permission)));
			return this;
		}

		public Builder denyPermissions(ToolPermission... permissions) {
			this.deniedPermissions.addAll(List.of(permissions));
			return this;
		}

		/**
		 * Allow these tools whatever their permission (unless denied).
		 * @param tools tool names and globs
		 * @return this builder
		 */
		public Builder allowTools(Collection<String> tools) {
			tools.forEach((tool) -> this.allowedTools.add(Objects.requireNonNull(tool, "'tools' must not contain null")));
			return this;
		}

		public Builder allowTools(String... tools) {
			return allowTools(List.of(tools));
		}

		/**
		 * Deny these tools.
		 * @param tools tool names and globs
		 * @return this builder
		 */
		public Builder denyTools(Collection<String> tools) {
			tools.forEach((tool) -> this.deniedTools.add(Objects.requireNonNull(tool, "'tools' must not contain null")));
			return this;
		}

		public Builder denyTools(String... tools) {
			return denyTools(List.of(tools));
		}

		public ToolPermissionRules build() {
			return new ToolPermissionRules(this);
		}

	}

}
