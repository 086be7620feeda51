package dev.agcore.run;

/**
 * Tests for {@link InMemoryRunStore}: the {@link RunStoreContractTests store contract}.
 */
class InMemoryRunStoreTests extends RunStoreContractTests {

	@Override
	protected RunStore createStore(MutableClock clock) {
		return new InMemoryRunStore(clock);
	}

}
