package dev.agcore.autoconfigure.memory;

import dev.agcore.memory.InMemoryConversationStore;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the default, in-memory conversation store.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.memory")
public class MemoryProperties {

	/**
	 * Maximum number of sessions the in-memory conversation store keeps. A new session
	 * beyond it evicts the least recently used one, passing over sessions waiting for
	 * approval unless every session waits.
	 */
	private int maxSessions = InMemoryConversationStore.DEFAULT_MAX_SESSIONS;

	/**
	 * Maximum number of messages the in-memory conversation store keeps per session. The
	 * oldest are dropped beyond it, never a tool call without its results.
	 */
	private int maxMessagesPerSession = InMemoryConversationStore.DEFAULT_MAX_MESSAGES_PER_SESSION;

	public int getMaxSessions() {
		return this.maxSessions;
	}

	public void setMaxSessions(int maxSessions) {
		this.maxSessions = maxSessions;
	}

	public int getMaxMessagesPerSession() {
		return this.maxMessagesPerSession;
	}

	public void setMaxMessagesPerSession(int maxMessagesPerSession) {
		this.maxMessagesPerSession = maxMessagesPerSession;
	}

}
