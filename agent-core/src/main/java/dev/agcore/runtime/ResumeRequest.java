package dev.agcore.runtime;

import java.util.Map;
import java.util.Objects;

import dev.agcore.model.ChatOptions;
import org.jspecify.annotations.Nullable;

/**
 * Decisions that resume a turn paused for approval.
 *
 * @param sessionId the session whose turn is paused
 * @param decisions one decision per pending tool call id
 * @param state caller state for the tools, as in {@link AgentRequest#state()}
 * @param userId the user, as in {@link AgentRequest#userId()}; not kept with the paused
 * turn, so send it again
 * @param options options for the rest of the turn's model calls, as in
 * {@link AgentRequest#options()}; not kept with the paused turn, so send them again (the
 * agent's own options apply otherwise)
 */
public record ResumeRequest(String sessionId, Map<String, ToolDecision> decisions, Map<String, Object> state,
		@Nullable String userId, ChatOptions options) {

	public ResumeRequest {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		decisions = Map.copyOf(decisions);
		state = Map.copyOf(state);
		Objects.requireNonNull(options, "'options' must not be null");
		// the same rules as a new turn's
		new AgentRequest(sessionId, "", Map.of(), userId);
	}

	/**
	 * Decisions with the agent's own options.
	 * @param sessionId the session
	 * @param decisions the decisions
	 * @param state caller state for the tools
	 * @param userId the user, or {@code null}
	 */
	public ResumeRequest(String sessionId, Map<String, ToolDecision> decisions, Map<String, Object> state,
			@Nullable String userId) {
		this(sessionId, decisions, state, userId, ChatOptions.DEFAULTS);
	}

	/**
	 * Decisions without a user id.
	 * @param sessionId the session
	 * @param decisions the decisions
	 * @param state caller state for the tools
	 */
	public ResumeRequest(String sessionId, Map<String, ToolDecision> decisions, Map<String, Object> state) {
		this(sessionId, decisions, state, null);
	}

	public static ResumeRequest of(String sessionId, Map<String, ToolDecision> decisions) {
		return new ResumeRequest(sessionId, decisions, Map.of(), null);
	}

	/**
	 * Return these decisions on behalf of a user.
	 * @param userId the user, or {@code null}
	 * @return the request
	 */
	public ResumeRequest withUserId(@Nullable String userId) {
		return new ResumeRequest(this.sessionId, this.decisions, this.state, userId, this.options);
	}

	/**
	 * Return these decisions with options for the rest of the turn's model calls.
	 * @param options the options, over the agent's own
	 * @return the request
	 */
	public ResumeRequest withOptions(ChatOptions options) {
		return new ResumeRequest(this.sessionId, this.decisions, this.state, this.userId, options);
	}

}
