package dev.agcore.audit;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One thing an agent did, or was refused, on someone's behalf. Arguments are redacted
 * (secret values and personal data replaced) and bounded before an event is made public:
 * an event holds no secret a tool was given and no model output beyond the arguments.
 *
 * @param kind what happened
 * @param agent the agent
 * @param sessionId the session
 * @param userId the principal the turn ran for, or {@code null} when anonymous
 * @param tool the tool, or {@code null} for an event of no tool (a budget refusal)
 * @param toolCallId the call, or {@code null} for an event of no call
 * @param arguments the call's arguments, redacted and bounded; empty for none
 * @param outcome how it ended: {@code success}, {@code error}, {@code denied},
 * {@code approved}, {@code edited}, {@code rejected} or, for a budget, the limit refused
 * (such as {@code turns_per_minute})
 * @param detail a short reason (a denial's or rejection's), redacted; empty for none
 * @param time when it happened
 * @since 0.1.0
 */
public record AuditEvent(Kind kind, String agent, String sessionId, @Nullable String userId, @Nullable String tool,
		@Nullable String toolCallId, String arguments, String outcome, String detail, Instant time) {

	public AuditEvent {
		Objects.requireNonNull(kind, "'kind' must not be null");
		Objects.requireNonNull(agent, "'agent' must not be null");
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(arguments, "'arguments' must not be null");
		Objects.requireNonNull(outcome, "'outcome' must not be null");
		Objects.requireNonNull(detail, "'detail' must not be null");
		Objects.requireNonNull(time, "'time' must not be null");
	}

	/**
	 * What an audit event records.
	 */
	public enum Kind {

		/** A tool ran (or failed): outcome {@code success} or {@code error}. */
		TOOL_CALL,

		/** The permission policy refused a tool call: outcome {@code denied}. */
		PERMISSION_DENIED,

		/** A human decided on a paused call: {@code approved}, {@code edited} or {@code rejected}. */
		APPROVAL,

		/** A budget refused a turn or a model call: the outcome names the limit. */
		BUDGET_EXCEEDED,

		/**
		 * The runtime refused a caller a session that is not its own (or a turn naming
		 * another user): outcome {@code denied}, detail {@code turn} or {@code read}.
		 */
		ACCESS_DENIED

	}

}
