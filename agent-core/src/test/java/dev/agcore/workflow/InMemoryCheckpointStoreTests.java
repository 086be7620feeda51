package dev.agcore.workflow;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.run.MutableClock;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

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

	@Test
	void checkpointsOfFinishedRunsDoNotPileUp() {
		store();
		JsonNode result = AgentJson.mapper().getNodeFactory().textNode("done");
		this.store.saveTask("finished", "task#0", result).block(Duration.ofSeconds(5));
		passTimeToLive();
		for (int i = 0; i < InMemoryCheckpointStore.SWEEP_EVERY; i++) {
			this.store.saveTask("run-" + (i % 10), "task#0", result).block(Duration.ofSeconds(5));
		}
		assertThat(this.store.purgeExpired()).as("swept already").isZero();
	}

}
