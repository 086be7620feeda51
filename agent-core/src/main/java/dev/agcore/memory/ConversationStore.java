package dev.agcore.memory;

import java.util.List;

import dev.agcore.message.Message;
import reactor.core.publisher.Mono;

/**
 * Stores the conversation of each session. A turn is appended as a whole, so a tool call
 * is never stored without its result and a failed turn leaves nothing behind.
 * Implementations are thread-safe; sessions are independent of each other.
 */
public interface ConversationStore {

	/**
	 * Load the conversation of a session, oldest message first.
	 * @param sessionId the session
	 * @return the messages; empty for an unknown session
	 */
	Mono<List<Message>> load(String sessionId);

	/**
	 * Append the messages of one turn atomically.
	 * @param sessionId the session
	 * @param messages the messages of the turn, in order
	 * @return completes when stored
	 */
	Mono<Void> append(String sessionId, List<Message> messages);

	/**
	 * Replace the whole conversation of a session, for middleware that rewrites history
	 * (summarization, redaction). The default clears then appends; stores that can do it
	 * atomically should override it.
	 * @param sessionId the session
	 * @param messages the new conversation
	 * @return completes when stored
	 */
	default Mono<Void> replace(String sessionId, List<Message> messages) {
		return clear(sessionId).then(append(sessionId, messages));
	}

	/**
	 * Load the turn of a session that is paused for approval, if any.
	 * @param sessionId the session
	 * @return the pending turn, or empty
	 */
	Mono<PendingTurn> loadPending(String sessionId);

	/**
	 * Keep a paused turn until it is resumed. Replaces any pending turn of the session.
	 * @param sessionId the session
	 * @param pending the paused turn
	 * @return completes when stored
	 */
	Mono<Void> savePending(String sessionId, PendingTurn pending);

	/**
	 * Take a paused turn out of the store to resume it, only if it is still the one given:
	 * of two resumptions of the same turn, exactly one wins. A resumption that fails puts
	 * the turn back with {@link #savePending}.
	 * @param sessionId the session
	 * @param expected the paused turn as loaded
	 * @return true if this caller claimed it; false if it was resumed or replaced meanwhile
	 */
	Mono<Boolean> claimPending(String sessionId, PendingTurn expected);

	/**
	 * Append the messages of a resumed turn and drop its pending state, atomically.
	 * @param sessionId the session
	 * @param messages the messages of the whole turn
	 * @return completes when stored
	 */
	Mono<Void> completePending(String sessionId, List<Message> messages);

	/**
	 * Forget a session.
	 * @param sessionId the session
	 * @return completes when removed
	 */
	Mono<Void> clear(String sessionId);

}
