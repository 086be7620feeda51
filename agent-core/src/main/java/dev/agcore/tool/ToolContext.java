package dev.agcore.tool;

import java.util.Map;
import java.util.Objects;

import dev.agcore.AgentPrincipal;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.LongTermStore;
import dev.agcore.memory.SessionMemory;
import org.jspecify.annotations.Nullable;

/**
 * Runtime values of one tool call, never shown to the model.
 *
 * @param toolCallId the id of the call, as the model chose it
 * @param sessionId the session the call belongs to
 * @param agentName the agent running the call
 * @param state the caller's state passed with the request; read-only
 * @param memory the key-value memory of the session
 * @param store the long-term memory shared by all sessions
 * @param userId the user the request was sent for, or {@code null}
 * @param progress where a long-running tool reports how far it got
 * @param principal the authenticated caller the turn runs for, with its authorities, or
 * {@code null} (no security, or a background run)
 */
public record ToolContext(String toolCallId, String sessionId, String agentName, Map<String, Object> state,
		SessionMemory memory, LongTermStore store, @Nullable String userId, ToolProgress progress,
		@Nullable AgentPrincipal principal) {

	public ToolContext {
		Objects.requireNonNull(toolCallId, "'toolCallId' must not be null");
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(agentName, "'agentName' must not be null");
		Objects.requireNonNull(memory, "'memory' must not be null");
		Objects.requireNonNull(store, "'store' must not be null");
		Objects.requireNonNull(progress, "'progress' must not be null");
		state = Map.copyOf(state);
	}

	/**
	 * Create a context without a principal.
	 * @param toolCallId the id of the call
	 * @param sessionId the session
	 * @param agentName the agent
	 * @param state the caller's state
	 * @param memory the session's memory
	 * @param store the long-term memory
	 * @param userId the user, or {@code null}
	 * @param progress where the tool reports how far it got
	 */
	public ToolContext(String toolCallId, String sessionId, String agentName, Map<String, Object> state,
			SessionMemory memory, LongTermStore store, @Nullable String userId, ToolProgress progress) {
		this(toolCallId, sessionId, agentName, state, memory, store, userId, progress, null);
	}

	/**
	 * Create a context whose progress reports go nowhere.
	 * @param toolCallId the id of the call
	 * @param sessionId the session
	 * @param agentName the agent
	 * @param state the caller's state
	 * @param memory the session's memory
	 * @param store the long-term memory
	 * @param userId the user, or {@code null}
	 */
	public ToolContext(String toolCallId, String sessionId, String agentName, Map<String, Object> state,
			SessionMemory memory, LongTermStore store, @Nullable String userId) {
		this(toolCallId, sessionId, agentName, state, memory, store, userId, ToolProgress.NONE);
	}

	/**
	 * Create a context without a user id.
	 * @param toolCallId the id of the call
	 * @param sessionId the session
	 * @param agentName the agent
	 * @param state the caller's state
	 * @param memory the session's memory
	 * @param store the long-term memory
	 */
	public ToolContext(String toolCallId, String sessionId, String agentName, Map<String, Object> state,
			SessionMemory memory, LongTermStore store) {
		this(toolCallId, sessionId, agentName, state, memory, store, null, ToolProgress.NONE);
	}

	/**
	 * Create a context whose memory lives in a new in-memory store of its own, for tests
	 * and for calling a tool outside an agent.
	 * @param toolCallId the id of the call
	 * @param sessionId the session
	 * @param agentName the agent
	 * @param state the caller's state
	 */
	public ToolContext(String toolCallId, String sessionId, String agentName, Map<String, Object> state) {
		this(toolCallId, sessionId, agentName, state, new InMemoryKeyValueStore());
	}

	/**
	 * Create a context whose session memory and long-term memory live in a store.
	 * @param toolCallId the id of the call
	 * @param sessionId the session
	 * @param agentName the agent
	 * @param state the caller's state
	 * @param store the store
	 */
	public ToolContext(String toolCallId, String sessionId, String agentName, Map<String, Object> state,
			KeyValueStore store) {
		this(toolCallId, sessionId, agentName, state, SessionMemory.of(store, sessionId), LongTermStore.of(store), null,
				ToolProgress.NONE);
	}

	/**
	 * Return this context for a user.
	 * @param userId the user, or {@code null}
	 * @return the context
	 */
	public ToolContext withUserId(@Nullable String userId) {
		return new ToolContext(this.toolCallId, this.sessionId, this.agentName, this.state, this.memory, this.store,
				userId, this.progress, this.principal);
	}

	/**
	 * Return this context reporting progress somewhere.
	 * @param progress where the tool reports how far it got
	 * @return the context
	 */
	public ToolContext withProgress(ToolProgress progress) {
		return new ToolContext(this.toolCallId, this.sessionId, this.agentName, this.state, this.memory, this.store,
				this.userId, progress, this.principal);
	}

	/**
	 * Return this context for an authenticated caller.
	 * @param principal the caller, or {@code null}
	 * @return the context
	 */
	public ToolContext withPrincipal(@Nullable AgentPrincipal principal) {
		return new ToolContext(this.toolCallId, this.sessionId, this.agentName, this.state, this.memory, this.store,
				this.userId, this.progress, principal);
	}

}
