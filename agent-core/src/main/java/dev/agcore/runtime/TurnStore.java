package dev.agcore.runtime;

import java.util.List;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import dev.agcore.memory.ConversationConflictException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionDirectory;
import dev.agcore.message.Message;
import reactor.core.publisher.Mono;

/**
 * Stores what a turn leaves behind: its messages or its paused state, and, for a request
 * that names a user, the session in that user's list. A turn that overlapped another turn of the same
 * session (on this instance or another) is appended after it: its messages stay together,
 * and nothing is lost. A turn whose middleware rewrote the history (compaction,
 * summarization) cannot be moved on top of a newer history without dropping the other
 * turn, so it fails with the store's {@link ConversationConflictException}, which the web
 * endpoint answers with 409, retryable.
 */
final class TurnStore {

	/** How many times a turn is moved on top of a history that keeps changing. */
	static final int MAX_APPEND_ATTEMPTS = 10;

	private final ConversationStore store;

	private final SessionDirectory directory;

	private final String agentName;

	TurnStore(ConversationStore store, KeyValueStore keyValueStore, String agentName) {
		this.store = store;
		this.directory = SessionDirectory.of(keyValueStore);
		this.agentName = agentName;
	}

	Mono<Void> paused(Turn turn) {
		String sessionId = turn.sessionId();
		return listed(turn, () -> onTop(sessionId, turn.historyVersion(),
				(version) -> this.store.savePending(sessionId, version, turn.toPending())));
	}

	Mono<Void> finished(Turn turn, List<Message> turnMessages) {
		return listed(turn, () -> stored(turn, turnMessages));
	}

	/**
	 * Record the session in its user's list, then store the turn: a list that cannot be
	 * written leaves the turn unwritten rather than unlisted.
	 */
	private Mono<Void> listed(Turn turn, Supplier<Mono<Void>> store) {
		String userId = turn.userId();
		if (userId == null) {
			return store.get();
		}
		return this.directory.record(userId, turn.sessionId(), this.agentName).then(Mono.defer(store));
	}

	private Mono<Void> stored(Turn turn, List<Message> turnMessages) {
		String sessionId = turn.sessionId();
		long version = turn.historyVersion();
		if (turn.isResumed()) {
			if (turn.historyUnchanged()) {
				return onTop(sessionId, version, (current) -> this.store.completePending(sessionId, current, turnMessages));
			}
			return this.store.replace(sessionId, version, List.copyOf(turn.messages()))
				.then(this.store.completePending(sessionId, version + 1, List.of()));
		}
		if (turn.historyUnchanged()) {
			return onTop(sessionId, version, (current) -> this.store.append(sessionId, current, turnMessages));
		}
		return this.store.replace(sessionId, version, List.copyOf(turn.messages()));
	}

	/** Write at the version read; if another turn wrote first, write again after it. */
	private Mono<Void> onTop(String sessionId, long version, LongFunction<Mono<Void>> write) {
		return attempt(sessionId, version, write, 1);
	}

	private Mono<Void> attempt(String sessionId, long version, LongFunction<Mono<Void>> write, int attempt) {
		return write.apply(version).onErrorResume(ConversationConflictException.class, (conflict) -> {
			if (attempt >= MAX_APPEND_ATTEMPTS) {
				return Mono.error(conflict);
			}
			return this.store.load(sessionId)
				.flatMap((current) -> attempt(sessionId, current.version(), write, attempt + 1));
		});
	}

}
