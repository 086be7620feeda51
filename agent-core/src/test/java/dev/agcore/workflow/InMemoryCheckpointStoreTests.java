package dev.agcore.workflow;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.run.MutableClock;

class InMemoryCheckpointStoreTests extends CheckpointStoreContract {

	private final MutableClock clock = MutableClock.now();

	private InMemoryCheckpointStore store;

	@Override
	protected CheckpointStore store() {
		this.store = new InMemoryCheckpointStore(ttl(), this.clock);
		return this.store;
	}

	@Override
	protected void passTimeToLive() {
		this.clock.advance(ttl().plus(Duration.ofSeconds(1)));
	}

	@Override
	protected void writeNewerFormat(String runId) {
		this.store.put(new Checkpoint(runId, Checkpoint.FORMAT_VERSION + 1, 5, Map.of(), List.of(), 0));
	}

}
