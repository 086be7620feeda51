package dev.agcore.tool;

import org.jspecify.annotations.Nullable;

/**
 * Where a long-running tool reports how far it got, such as an MCP server's
 * {@code notifications/progress}. Streaming callers see each report as a
 * {@code tool_progress} event; reports never reach the model. Thread-safe; cheap to call.
 */
@FunctionalInterface
public interface ToolProgress {

	/** Progress that goes nowhere, for tools run outside an agent. */
	ToolProgress NONE = (progress, total, message) -> {
	};

	/**
	 * Report progress.
	 * @param progress how much is done, increasing with each report
	 * @param total how much there is to do, or {@code null} when unknown
	 * @param message what is being done, or {@code null}; shown to people, never to the
	 * model, and cut to a few hundred characters
	 */
	void report(double progress, @Nullable Double total, @Nullable String message);

}
