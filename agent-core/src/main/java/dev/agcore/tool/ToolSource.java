package dev.agcore.tool;

import java.util.List;

/**
 * Tools that come and go while the application runs, such as those of an MCP server that
 * connects after startup or announces a changed tool list. An agent given a source
 * ({@link dev.agcore.runtime.AgentBuilder}) asks it for its current tools at the start of
 * each turn, and sends the model those in the agent's scope.
 */
@FunctionalInterface
public interface ToolSource {

	/**
	 * Return the tools available now. Called once per turn, from any thread: must be
	 * cheap (a snapshot, no I/O) and thread-safe.
	 * @return the tools, empty when none is available (a server still connecting, say)
	 */
	List<ToolCallback> tools();

}
