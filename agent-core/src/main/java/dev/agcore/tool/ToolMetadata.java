package dev.agcore.tool;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What the agent runtime knows about a tool beyond what the model sees.
 *
 * @param permission what the tool may do, for permission policies
 * @param category the group agents can select the tool by, or {@code null}
 * @param timeout how long one call may run, or {@code null} for the agent's tool timeout
 * @param returnDirect whether the tool's result becomes the agent's answer without
 * another model call
 * @param secretParameters the top-level argument names that may carry
 * {@code <secret_ref:NAME>} placeholders; placeholders anywhere else are refused
 * @param secretsDeclared whether the tool said which parameters may carry secrets
 * ({@code secrets = {}} counts); an undeclared tool is never secret-eligible, and an
 * application that resolves secrets refuses to start with one
 */
public record ToolMetadata(ToolPermission permission, @Nullable String category, @Nullable Duration timeout,
		boolean returnDirect, Set<String> secretParameters, boolean secretsDeclared) {

	/**
	 * Metadata of a tool that declares nothing: {@link ToolPermission#WRITE}, no category,
	 * the agent's timeout, not returning directly, no secret parameters.
	 */
	public static final ToolMetadata DEFAULT = new ToolMetadata(ToolPermission.WRITE, null, null, false, Set.of());

	/**
	 * Metadata of a tool that declared its secret parameters.
	 * @param permission what the tool may do
	 * @param category the group agents can select the tool by, or {@code null}
	 * @param timeout how long one call may run, or {@code null} for the agent's
	 * @param returnDirect whether the tool's result becomes the agent's answer
	 * @param secretParameters the argument names that may carry secret placeholders
	 */
	public ToolMetadata(ToolPermission permission, @Nullable String category, @Nullable Duration timeout,
			boolean returnDirect, Set<String> secretParameters) {
		this(permission, category, timeout, returnDirect, secretParameters, true);
	}

	public ToolMetadata {
		Objects.requireNonNull(permission, "'permission' must not be null");
		category = (category != null && !category.isBlank()) ? category.strip() : null;
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new IllegalArgumentException("'timeout' must be positive, was " + timeout);
		}
		secretParameters = Collections.unmodifiableSet(new LinkedHashSet<>(secretParameters));
		if (!secretsDeclared && !secretParameters.isEmpty()) {
			throw new IllegalArgumentException("a tool that did not declare its secrets has no secret parameters");
		}
	}

	public ToolMetadata withPermission(ToolPermission permission) {
		return new ToolMetadata(permission, this.category, this.timeout, this.returnDirect, this.secretParameters,
				this.secretsDeclared);
	}

	public ToolMetadata withCategory(@Nullable String category) {
		return new ToolMetadata(this.permission, category, this.timeout, this.returnDirect, this.secretParameters,
				this.secretsDeclared);
	}

	public ToolMetadata withTimeout(@Nullable Duration timeout) {
		return new ToolMetadata(this.permission, this.category, timeout, this.returnDirect, this.secretParameters,
				this.secretsDeclared);
	}

	public ToolMetadata withReturnDirect(boolean returnDirect) {
		return new ToolMetadata(this.permission, this.category, this.timeout, returnDirect, this.secretParameters,
				this.secretsDeclared);
	}

	public ToolMetadata withSecretParameters(Set<String> secretParameters) {
		return new ToolMetadata(this.permission, this.category, this.timeout, this.returnDirect, secretParameters, true);
	}

}
