package dev.agcore.memory;

import java.time.Clock;

/**
 * The store contract on the in-memory store; "two instances" are one store, as two
 * threads of one application share it.
 */
class InMemoryConversationStoreContractTests extends ConversationStoreContract {

	@Override
	protected ConversationStore createStore(Settings settings) {
		return new InMemoryConversationStore(InMemoryConversationStore.DEFAULT_MAX_SESSIONS,
				settings.maxMessagesPerSession(), settings.sessionTtl(), Clock.systemUTC());
	}

	@Override
	protected ConversationStore secondInstance(ConversationStore first, Settings settings) {
		return first;
	}

}
