package dev.agcore.runtime;

import dev.agcore.AgentException;

/**
 * The caller of a turn, or of a read of a session, may not use that session: it belongs
 * to another principal, or the caller is anonymous and the session has an owner (see
 * {@link SessionAccess}). Also thrown when a turn of a principal names another user as
 * its {@link AgentRequest#userId() userId}.
 * <p>
 * The message is the same for a session someone else owns and for one the caller may
 * not see because it does not exist, so a refusal tells nothing about other users'
 * sessions. The starter's routes answer it as they answer an unknown session: 404,
 * {@value #CODE}.
 *
 * @since 0.1.0
 */
public class AgentAccessDeniedException extends AgentException {

	/** The code of the failure, the same as an unknown session's. */
	public static final String CODE = "not_found";

	/**
	 * Create the exception.
	 * @param message what was refused, the same for a foreign and an unknown session
	 */
	public AgentAccessDeniedException(String message) {
		super(message);
	}

	/**
	 * The refusal of a session, worded as an unknown session's.
	 * @param sessionId the session
	 * @return the exception
	 */
	public static AgentAccessDeniedException session(String sessionId) {
		return new AgentAccessDeniedException("No session '" + sessionId + "'");
	}

	@Override
	public String errorCode() {
		return CODE;
	}

}
