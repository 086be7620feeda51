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
	 * Forget a session.
	 * @param sessionId the session
	 * @return completes when removed
	 */
	Mono<Void> clear(String sessionId);

}
