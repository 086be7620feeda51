package dev.agcore.autoconfigure.memory;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Picks the one {@link KeyValueStore} that session owners and A2A task records are kept
 * in, and refuses a configuration in which ownership would quietly stop holding. Before,
 * with no store or several, owners were not checked at all and A2A kept its tasks in a
 * private in-memory store; an owner record could also expire before its conversation,
 * so that the next caller claimed a live session. Now each of these stops the startup,
 * naming what to change.
 *
 * @since 0.1.0
 */
public final class SessionOwnerStore {

	// the stores of agent-core whose time-to-live are agent.memory.*: names, as their
	// classes need optional libraries
	private static final Set<String> OWN_KEY_VALUE_STORES = Set.of(InMemoryKeyValueStore.class.getName(),
			"dev.agcore.memory.jdbc.JdbcKeyValueStore", "dev.agcore.memory.redis.RedisKeyValueStore");

	private static final Set<String> PERSISTENT_CONVERSATION_STORES = Set
		.of("dev.agcore.memory.jdbc.JdbcConversationStore", "dev.agcore.memory.redis.RedisConversationStore");

	private SessionOwnerStore() {
	}

	/**
	 * Return the application's one key-value store: the only bean, or the
	 * {@code @Primary} one of several.
	 * @param stores the key-value store beans
	 * @param usedBy what needs it, for the message
	 * @return the store
	 * @throws AgentConfigurationException with none, or several and none primary
	 */
	public static KeyValueStore require(ObjectProvider<KeyValueStore> stores, String usedBy) {
		KeyValueStore store = stores.getIfUnique();
		if (store != null) {
			return store;
		}
		List<String> found = stores.stream().map((candidate) -> candidate.getClass().getSimpleName()).toList();
		if (found.isEmpty()) {
			throw new AgentConfigurationException(usedBy + " need a KeyValueStore bean, and there is none",
					"Keep the memory auto-configuration (it defines one for agent.memory.store: in-memory, jdbc or "
							+ "redis), or define one KeyValueStore bean.");
		}
		throw new AgentConfigurationException(
				usedBy + " need exactly one KeyValueStore, and there are " + found.size() + ": " + found,
				"Mark the KeyValueStore that keeps session owners @Primary, or define only one KeyValueStore bean.");
	}

	/**
	 * Return the application's {@link SessionOwners}: the bean, else owners kept in the
	 * one key-value store.
	 * @param owners the session owners bean, if any
	 * @param stores the key-value store beans
	 * @return the owners
	 * @throws AgentConfigurationException without a bean and with no store or several
	 */
	public static SessionOwners owners(ObjectProvider<SessionOwners> owners, ObjectProvider<KeyValueStore> stores) {
		SessionOwners bean = owners.getIfUnique();
		return (bean != null) ? bean : SessionOwners.of(require(stores, "Session owners"));
	}

	/**
	 * Refuse stores in which an owner record could go before its conversation: a
	 * key-value time-to-live shorter than the sessions', or owners kept in memory while
	 * conversations outlive a restart.
	 * @param store the store of the owners
	 * @param conversations the conversation store, {@code null} when not unique
	 * @param properties the memory properties
	 */
	static void requireOwnersOutliveConversations(KeyValueStore store, @Nullable ConversationStore conversations,
			MemoryProperties properties) {
		if (conversations != null && store instanceof InMemoryKeyValueStore
				&& PERSISTENT_CONVERSATION_STORES.contains(conversations.getClass().getName())) {
			throw new AgentConfigurationException(
					"Conversations are kept in a " + conversations.getClass().getSimpleName()
							+ " but session owners in memory: after a restart no conversation would have an owner, "
							+ "and the next caller could claim any of them",
					"Keep the KeyValueStore on the conversations' backend (agent.memory.store), or mark a persistent "
							+ "KeyValueStore @Primary.");
		}
		if (!OWN_KEY_VALUE_STORES.contains(store.getClass().getName())
				|| (conversations != null && !(conversations instanceof InMemoryConversationStore)
						&& !PERSISTENT_CONVERSATION_STORES.contains(conversations.getClass().getName()))) {
			// stores of the application's own: their lifetimes are theirs to match
			return;
		}
		Duration ownerTtl = properties.getLongTerm().getTtl();
		Duration sessionTtl = properties.getSessionTtl();
		if (!ownerTtl.isZero() && (sessionTtl.isZero() || ownerTtl.compareTo(sessionTtl) < 0)) {
			throw new AgentConfigurationException("agent.memory.long-term.ttl (" + ownerTtl
					+ ") is shorter than agent.memory.session-ttl (" + (sessionTtl.isZero() ? "none" : sessionTtl)
					+ "): a session's owner record, kept in the key-value store, would expire before its "
					+ "conversation, and the next caller could claim the session",
					"Set agent.memory.long-term.ttl to 0 (values kept until deleted) or to at least "
							+ "agent.memory.session-ttl, or shorten agent.memory.session-ttl.");
		}
	}

}
