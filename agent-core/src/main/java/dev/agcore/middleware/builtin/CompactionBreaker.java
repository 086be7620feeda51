package dev.agcore.middleware.builtin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts consecutive failed compactions per session, so that a session whose conversation
 * cannot be shrunk stops paying for attempts. Only sessions with failures are kept, at
 * most {@code maxSessions} of them, the least recently used forgotten first (a forgotten
 * session is tried again). Thread-safe.
 */
final class CompactionBreaker {

	private final int maxFailures;

	private final Map<String, Integer> failures;

	CompactionBreaker(int maxFailures, int maxSessions) {
		this.maxFailures = maxFailures;
		this.failures = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
				return size() > maxSessions;
			}

		};
	}

	/** Whether compaction stopped for the session after too many failures in a row. */
	synchronized boolean isOpen(String sessionId) {
		Integer count = this.failures.get(sessionId);
		return count != null && count >= this.maxFailures;
	}

	/** A compaction freed tokens: start counting again. */
	synchronized void success(String sessionId) {
		this.failures.remove(sessionId);
	}

	/**
	 * A compaction freed nothing or failed.
	 * @return whether this failure opened the breaker
	 */
	synchronized boolean failure(String sessionId) {
		int count = this.failures.merge(sessionId, 1, Integer::sum);
		return count == this.maxFailures;
	}

}
