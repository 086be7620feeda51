package dev.agcore.tool.permission;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link ToolPermissionPolicy} decided about one tool call.
 *
 * @param allowed whether the call may run
 * @param reason why it may not, shown to the model; {@code null} when allowed
 */
public record PermissionDecision(boolean allowed, @Nullable String reason) {

	private static final PermissionDecision ALLOW = new PermissionDecision(true, null);

	public PermissionDecision {
		if (!allowed) {
			Objects.requireNonNull(reason, "'reason' must not be null for a denial");
		}
	}

	public static PermissionDecision allow() {
		return ALLOW;
	}

	/**
	 * Deny a call.
	 * @param reason why, shown to the model: say what it can do instead if anything
	 * @return the decision
	 */
	public static PermissionDecision deny(String reason) {
		return new PermissionDecision(false, reason);
	}

}
