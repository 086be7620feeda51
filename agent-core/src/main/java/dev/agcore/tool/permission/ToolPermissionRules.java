package dev.agcore.tool.permission;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.agcore.message.ToolCall;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolScope;

/**
 * A {@link ToolPermissionPolicy} from allow and deny rules, by permission and by tool
 * name (names and globs such as {@code notes_*}):
 * <ol>
 * <li>a call whose tool or permission is denied is denied;</li>
 * <li>otherwise, if there are allow rules, a call is allowed only if its tool or its
 * permission is allowed;</li>
 * <li>otherwise it is allowed.</li>
 * </ol>
 * Deny always wins. Immutable.
 */
public final class ToolPermissionRules implements ToolPermissionPolicy {

	private final Set<ToolPermission> allowedPermissions;

	private final Set<ToolPermission> deniedPermissions;

	private final ToolScope allowedTools;

	private final ToolScope deniedTools;

	private ToolPermissionRules(Builder builder) {
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

	@Override
	public String toString() {
		return "ToolPermissionRules [allow permissions " + this.allowedPermissions + ", tools "
				+ this.allowedTools.entries() + "; deny permissions " + this.deniedPermissions + ", tools "
				+ this.deniedTools.entries() + "]";
	}

	/**
	 * Builds {@link ToolPermissionRules}.
	 */
	public static final class Builder {

		private final Set<ToolPermission> allowedPermissions = new LinkedHashSet<>();

		private final Set<ToolPermission> deniedPermissions = new LinkedHashSet<>();

		private final List<String> allowedTools = new ArrayList<>();

		private final List<String> deniedTools = new ArrayList<>();

		private Builder() {
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
