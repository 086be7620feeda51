package dev.agcore.memory;

/**
 * A turn could not be stored because the session's conversation changed after the turn
 * read it: another turn of the same session, typically on another instance, finished
 * first. Nothing of the losing turn is stored; sending the message again runs a new turn
 * on top of the newer conversation. Retryable.
 *
 * @since 0.1.0
 */
public class ConversationConflictException extends MemoryException {

	private final String sessionId;

	public ConversationConflictException(String sessionId, long expectedVersion) {
		super("The conversation of session '" + sessionId + "' changed while the turn ran (another turn of the "
				+ "session finished first; expected version " + expectedVersion + "); nothing of this turn was "
				+ "stored, send the message again");
		this.sessionId = sessionId;
	}

	public String sessionId() {
		return this.sessionId;
	}

}
