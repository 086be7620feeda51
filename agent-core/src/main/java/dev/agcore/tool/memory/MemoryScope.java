package dev.agcore.tool.memory;

import java.util.Locale;

import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolException;

/**
 * Whose memory the {@link MemoryTools} read and write: the namespace of the
 * {@link dev.agcore.memory.LongTermStore} they use.
 */
public enum MemoryScope {

	/** One memory per user ({@code user:<userId>}): calls without a user id fail. */
	USER,

	/** One memory per session ({@code session:<sessionId>}), deleted with the session. */
	SESSION,

	/** One memory for all sessions of the agent ({@code agent:<agentName>}). */
	AGENT;

	/**
	 * Return the long-term namespace of a call.
	 * @param context the call
	 * @return the namespace
	 * @throws ToolException for the user scope when the request named no user
	 */
	public String namespace(ToolContext context) {
		return switch (this) {
			case USER -> {
				String userId = context.userId();
				if (userId == null) {
					throw new ToolException("memory is kept per user, and this request names no user; "
							+ "the application must send a user id with the request");
				}
				yield "user:" + userId;
			}
			case SESSION -> "session:" + context.sessionId();
			case AGENT -> "agent:" + context.agentName();
		};
	}

	/**
	 * Parse a scope, ignoring case.
	 * @param value {@code user}, {@code session} or {@code agent}
	 * @return the scope
	 */
	public static MemoryScope parse(String value) {
		try {
			return valueOf(value.strip().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Unknown memory scope '" + value + "'; use user, session or agent", ex);
		}
	}

}
