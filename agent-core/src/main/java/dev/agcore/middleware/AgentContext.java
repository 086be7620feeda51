package dev.agcore.middleware;

import java.util.Map;

import dev.agcore.memory.SessionMemory;

import org.jspecify.annotations.Nullable;

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
	 * Return the user the request was sent for.
	 * @return the user id, or {@code null} when the request named none
	 */
	default @Nullable String userId() {
		return null;
	}

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

	/**
	 * Return the key-value memory of the turn's session, shared with the session's tools
	 * and kept across turns.
	 * @return the session memory
	 */
	default SessionMemory memory() {
		throw new UnsupportedOperationException("This context has no session memory");
	}

	/**
	 * Return whether a human approved this tool call (possibly with edited arguments) when
	 * resuming an interrupted turn; approval middleware lets such calls through.
	 * @param toolCallId the call id
	 * @return whether the call was approved
	 */
	default boolean isApproved(String toolCallId) {
		return false;
	}

	/**
	 * Return whether the agent's tool permission policy refuses this call of the current
	 * response. Such a call is never asked for approval: approval middleware lets it
	 * through to be refused, and the model is told why.
	 * @param toolCallId the call id
	 * @return whether the call will be denied
	 */
	default boolean isDenied(String toolCallId) {
		return false;
	}

	/**
	 * Return the exception behind the latest error result of a tool call of this turn,
	 * when the runtime knows it. Tool failures reach middleware as error results, never as
	 * errors, so this is how a middleware such as a retry sees what went wrong.
	 * @param toolCallId the id of the tool call
	 * @return the exception, or null when unknown or when the call did not fail with one
	 */
	default @Nullable Throwable toolFailure(String toolCallId) {
		return null;
	}

}
