package dev.agcore.tool.typed;

import java.util.Objects;

import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.binding.ToolBinding;
import org.jspecify.annotations.Nullable;

/**
 * Adapts {@link TypedTool}s to {@link ToolCallback}s, so they live in the same registry
 * as {@code @Tool} methods. The schema is generated once, when the callback is created.
 */
public final class TypedTools {

	private TypedTools() {
	}

	/**
	 * Adapt a typed tool, binding with {@link ToolBinding#defaults()}.
	 * @param tool the typed tool
	 * @return the callback
	 * @throws ToolDefinitionException naming the tool if it is not valid
	 */
	public static ToolCallback from(TypedTool<?> tool) {
		return from(tool, ToolBinding.defaults(), null);
	}

	/**
	 * Adapt a typed tool.
	 * @param tool the typed tool
	 * @param binding how arguments are bound and validated
	 * @param source where the tool comes from, for messages, e.g. {@code bean 'forecast'};
	 * or {@code null}
	 * @return the callback
	 * @throws ToolDefinitionException naming the tool if it is not valid
	 */
	public static ToolCallback from(TypedTool<?> tool, ToolBinding binding, @Nullable String source) {
		Objects.requireNonNull(tool, "'tool' must not be null");
		Objects.requireNonNull(binding, "'binding' must not be null");
		return new TypedToolCallback<>(tool, binding, source);
	}

}
