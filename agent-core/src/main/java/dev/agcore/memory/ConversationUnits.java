package dev.agcore.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The session each conversation of an {@link InMemoryConversationStore} counts in for
 * its {@link InMemoryBytes} cap: a conversation's own id, or for an agent's isolated
 * conversation ({@link SessionMode#isolatedId}, which may be a hash) the session it was
 * bound to. Also the sessions dropped under the store's lock, to evict whole once it is
 * released. Not thread-safe: guarded by the store's lock.
 */
final class ConversationUnits {

	private final Map<String, String> sessionOfDerived = new HashMap<>();

	private final Map<String, Set<String>> derivedOf = new HashMap<>();

	private final List<String> toEvict = new ArrayList<>();

	void bind(String conversationId, String sessionId) {
		if (!conversationId.equals(sessionId)) {
			this.sessionOfDerived.put(conversationId, sessionId);
			this.derivedOf.computeIfAbsent(sessionId, (id) -> new HashSet<>()).add(conversationId);
		}
	}

	String unit(String conversationId) {
		String sessionId = this.sessionOfDerived.get(conversationId);
		return InMemoryBytes.sessionUnit((sessionId != null) ? sessionId : conversationId);
	}

	/** The isolated conversations bound to a session. */
	Set<String> derived(String sessionId) {
		return this.derivedOf.getOrDefault(sessionId, Set.of());
	}

	/** Forget a removed conversation's binding. */
	void forget(String conversationId) {
		String sessionId = this.sessionOfDerived.remove(conversationId);
		if (sessionId != null) {
			Set<String> derived = this.derivedOf.get(sessionId);
			if (derived != null && derived.remove(conversationId) && derived.isEmpty()) {
				this.derivedOf.remove(sessionId);
			}
		}
	}

	void evictLater(String unit) {
		this.toEvict.add(unit);
	}

	List<String> drainEvictions() {
		if (this.toEvict.isEmpty()) {
			return List.of();
		}
		List<String> drained = List.copyOf(this.toEvict);
		this.toEvict.clear();
		return drained;
	}

}
