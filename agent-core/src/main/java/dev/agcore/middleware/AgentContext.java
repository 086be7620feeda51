package dev.agcore.middleware;

import java.util.Map;

/**
 * What a middleware knows about the turn it runs in. One instance per turn; read it from
 * the hook that receives it, do not keep it.
 */
public interface AgentContext {

	/**
	 * Return the name of the agent running the turn.
	 * @return the agent name
	 */
	String agentName();

	/**
	 * Return the session of the turn.
	 * @return the session id
	 */
	String sessionId();

	/**
	 * Return the caller's state passed with the request; read-only.
	 * @return the state
	 */
	Map<String, Object> state();

	/**
	 * Return how many model calls this turn has started so far, including the current one.
	 * @return the count
	 */
	int modelCalls();

	/**
	 * Return scratch space shared by all hooks of this turn, for middleware that needs to
	 * carry something from one hook to another. Not stored, not thread-safe.
	 * @return the mutable attributes
	 */
	Map<String, Object> attributes();

}
