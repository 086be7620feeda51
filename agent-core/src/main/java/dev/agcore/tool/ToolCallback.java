package dev.agcore.tool;

import org.jspecify.annotations.Nullable;

/**
 * A tool an agent can run. Implementations are thread-safe: the same instance serves
 * concurrent calls. {@link #call} is synchronous and may block; the agent loop never runs
 * it on an event-loop thread.
 */
public interface ToolCallback {

	/**
	 * Return what the model is told about this tool. Computed once, not per call.
	 * @return the spec
	 */
	ToolSpec spec();

	/**
	 * Run the tool.
	 * @param arguments the arguments as the model sent them (a JSON object text), with the
	 * secret references of {@linkplain ToolMetadata#secretParameters() eligible parameters}
	 * resolved
	 * @param context the runtime values of this call
	 * @return the result as text for the model
	 * @throws ToolArgumentsException if the arguments do not fit the tool's schema
	 * @throws Exception anything the tool itself throws; fed back to the model
	 */
	String call(String arguments, ToolContext context) throws Exception;

	/**
	 * Return what the runtime knows about this tool beyond its spec: permission,
	 * category, timeout, return-direct and the parameters that may carry secret
	 * references. Computed once, not per call.
	 * @return the metadata; {@link ToolMetadata#DEFAULT} unless overridden
	 */
	default ToolMetadata metadata() {
		return ToolMetadata.DEFAULT;
	}

	/**
	 * Return the remote server this tool comes from, which agents can select it by.
	 * @return the origin, or {@code null} for a tool of the application itself
	 */
	default @Nullable ToolOrigin origin() {
		return null;
	}

	/**
	 * Return where this tool was declared, for error messages (e.g. a bean name).
	 * @return a description of the tool's origin
	 */
	default String source() {
		return getClass().getName();
	}

}
