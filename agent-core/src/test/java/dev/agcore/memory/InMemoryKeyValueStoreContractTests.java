package dev.agcore.memory;

import java.time.Clock;

/**
 * The key-value store contract on the in-memory store; "two instances" are one store.
 */
class InMemoryKeyValueStoreContractTests extends KeyValueStoreContract {

	@Override
	protected KeyValueStore createStore(Settings settings) {
		return new InMemoryKeyValueStore(settings.maxItemsPerNamespace(), settings.ttl(), Clock.systemUTC());
	}

	@Override
	protected KeyValueStore secondInstance(KeyValueStore first, Settings settings) {
		return first;
	}

}
