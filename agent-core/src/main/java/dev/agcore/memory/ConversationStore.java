package dev.agcore.memory;

import java.util.List;

import dev.agcore.message.Message;
import reactor.core.publisher.Mono;

/**
 * Stores the conversation of each session. A turn is appended as a whole, so a tool call
 * is never stored without its result and a failed turn leaves nothing behind.
 * Implementations are thread-safe; sessions are independent of each other.
 * <p>
 * Every change to a conversation names the {@link Conversation#version() version} it was
 * computed from and fails with a {@link ConversationConflictException} when the stored
 * version differs: two turns of one session that overlap, on one instance or two, never
 * interleave their messages, and the one that finishes second is refused rather than
 * stored on top of a history it did not see. A store that cannot be reached fails with a
 * {@link MemoryUnavailableException} and changes nothing.
 */
public interface ConversationStore {

	/**
	 * Load the conversation of a session, oldest message first, with its version.
	 * @param sessionId the session
	 * @return the conversation; {@link Conversation#EMPTY} for an unknown session
	 */
	Mono<Conversation> load(String sessionId);

	/**
	 * Load the newest messages of a session, at most {@code maxMessages}, never starting
	 * with a tool result whose call was left out; the version is the conversation's. For
	 * reading a window of a long conversation without reading all of it. The default
	 * loads the whole conversation; persistent stores read only the newest messages.
	 * @param sessionId the session
	 * @param maxMessages the most messages returned; at least 1
	 * @return the newest messages, oldest first, and the version
	 */
	default Mono<Conversation> loadRecent(String sessionId, int maxMessages) {
		if (maxMessages < 1) {
			return Mono.error(new IllegalArgumentException("'maxMessages' must be at least 1, was " + maxMessages));
		}
		return load(sessionId).map((conversation) -> conversation.newest(maxMessages));
	}

	/**
	 * Append the messages of one turn atomically, if the conversation is still at the
	 * version the turn read; the version increases by one. The cost does not depend on
	 * the length of the conversation.
	 * @param sessionId the session
	 * @param expectedVersion the version the turn read ({@code 0} for a new session)
	 * @param messages the messages of the turn, in order
	 * @return completes when stored; fails with a {@link ConversationConflictException}
	 * when the version differs
	 */
	Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages);

	/**
	 * Replace the whole conversation of a session atomically, for middleware that rewrites
	 * history (compaction, summarization, redaction), if it is still at the version read;
	 * the version increases by one.
	 * @param sessionId the session
	 * @param expectedVersion the version the rewrite started from
	 * @param messages the new conversation
	 * @return completes when stored; fails with a {@link ConversationConflictException}
	 * when the version differs
	 */
	Mono<Void> replace(String sessionId, long expectedVersion, List<Message> messages);

	/**
	 * Load the turn of a session that is paused for approval, if any.
	 * @param sessionId the session
	 * @return the pending turn, or empty
	 */
	Mono<PendingTurn> loadPending(String sessionId);

	/**
	 * Keep a paused turn until it is resumed, if the conversation is still at the version
	 * the turn read; the version increases by one, so a turn that overlapped it cannot be
	 * appended. Replaces any pending turn of the session, claimed or not; the one saved is
	 * not claimed.
	 * @param sessionId the session
	 * @param expectedVersion the version the paused turn read
	 * @param pending the paused turn
	 * @return completes when stored; fails with a {@link ConversationConflictException}
	 * when the version differs
	 */
	Mono<Void> savePending(String sessionId, long expectedVersion, PendingTurn pending);

	/**
	 * Mark a paused turn as being resumed, only if it is still the one given and not
	 * already claimed: of two resumptions of the same turn, exactly one wins. The turn
	 * stays in the store while it is resumed, so {@link #loadPending} still returns it and
	 * a new message to the session is refused; {@link #progressPending} moves it on
	 * (the decided calls ran), {@link #completePending} drops it, {@link #savePending}
	 * replaces it (a resumed turn that pauses again) and {@link #releasePending} gives it
	 * back. A persistent store should let a claim expire,
	 * so a crashed instance cannot hold a session forever.
	 * @param sessionId the session
	 * @param expected the paused turn as loaded
	 * @return true if this caller claimed it; false if it is being resumed, was resumed,
	 * or was replaced meanwhile
	 */
	Mono<Boolean> claimPending(String sessionId, PendingTurn expected);

	/**
	 * Replace a claimed turn by the same turn further on, keeping the claim: a resumption
	 * records the results of the calls it ran, so that if it fails or is cancelled later
	 * the calls are not run again. Replaces only if the turn of the session is still
	 * {@code claimed} and still claimed; a later {@link #releasePending} of the resumption
	 * names {@code progressed}.
	 * @param sessionId the session
	 * @param claimed the turn as claimed
	 * @param progressed the turn with the results of its decided calls and, typically,
	 * no pending calls left
	 * @return true if replaced; false if the turn was completed, replaced or given back
	 * meanwhile
	 */
	Mono<Boolean> progressPending(String sessionId, PendingTurn claimed, PendingTurn progressed);

	/**
	 * Give back a claimed turn whose resumption failed or was cancelled: it can be resumed
	 * again. Does nothing if the turn was completed or replaced meanwhile.
	 * @param sessionId the session
	 * @param claimed the turn as claimed
	 * @return completes when released
	 */
	Mono<Void> releasePending(String sessionId, PendingTurn claimed);

	/**
	 * Append the messages of a resumed turn and drop its pending state, atomically, if the
	 * conversation is still at the version the resumption read; the version increases by
	 * one.
	 * @param sessionId the session
	 * @param expectedVersion the version the resumption read
	 * @param messages the messages of the whole turn
	 * @return completes when stored; fails with a {@link ConversationConflictException}
	 * when the version differs
	 */
	Mono<Void> completePending(String sessionId, long expectedVersion, List<Message> messages);

	/**
	 * Forget a session: its conversation and its pending turn. Its version starts again at
	 * {@code 0}.
	 * @param sessionId the session
	 * @return completes when removed
	 */
	Mono<Void> clear(String sessionId);

}
