package dev.agcore.workflow;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What every {@link CheckpointStore} must do; a subclass gives the store, a way to let its
 * time-to-live pass and a way to write a checkpoint in a newer format.
 */
public abstract class CheckpointStoreContract {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private CheckpointStore store;

	private String runId;

	/** A store whose checkpoints live for {@link #ttl()}. */
	protected abstract CheckpointStore store();

	protected Duration ttl() {
		return Duration.ofMinutes(5);
	}

	/** Let the time-to-live of everything written so far pass. */
	protected abstract void passTimeToLive() throws Exception;

	/** Mark a run's stored checkpoint as written in the format after the current one. */
	protected abstract void writeNewerFormat(String runId);

	@BeforeEach
	void createStore() {
		this.store = store();
		this.runId = "run-" + UUID.randomUUID();
	}

	@Test
	void unknownRunHasNoCheckpoint() {
		assertThat(this.store.load(this.runId).blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void keepsTaskResultsByCallIdFirstWriteWins() {
		assertThat(this.store.saveTask(this.runId, "fetch#0", json("first")).block(TIMEOUT)).isTrue();
		assertThat(this.store.saveTask(this.runId, "fetch#1", json("second")).block(TIMEOUT)).isTrue();
		assertThat(this.store.saveTask(this.runId, "fetch#0", json("again")).block(TIMEOUT)).isFalse();
		Checkpoint checkpoint = this.store.load(this.runId).block(TIMEOUT);
		assertThat(checkpoint.tasks()).containsOnlyKeys("fetch#0", "fetch#1");
		assertThat(checkpoint.tasks().get("fetch#0").asString()).isEqualTo("first");
		assertThat(checkpoint.formatVersion()).isEqualTo(Checkpoint.FORMAT_VERSION);
		assertThat(checkpoint.version()).isEqualTo(2);
	}

	@Test
	void keepsStructuredResults() {
		JsonNode result = JsonNodeFactory.instance.objectNode().put("sum", 15).set("items",
				JsonNodeFactory.instance.arrayNode().add(1).add(2));
		this.store.saveTask(this.runId, "transform#0", result).block(TIMEOUT);
		assertThat(this.store.load(this.runId).block(TIMEOUT).tasks().get("transform#0")).isEqualTo(result);
	}

	@Test
	void keepsAnswersInOrderOncePerIndex() {
		this.store.saveInterrupt(this.runId, 0).block(TIMEOUT);
		assertThat(this.store.load(this.runId).block(TIMEOUT).awaitsResume()).isTrue();
		assertThat(this.store.saveResume(this.runId, 0, json("yes")).block(TIMEOUT)).isTrue();
		assertThat(this.store.saveResume(this.runId, 0, json("no")).block(TIMEOUT)).isFalse();
		this.store.saveInterrupt(this.runId, 1).block(TIMEOUT);
		this.store.saveInterrupt(this.runId, 0).block(TIMEOUT);
		assertThat(this.store.saveResume(this.runId, 1, json("later")).block(TIMEOUT)).isTrue();
		Checkpoint checkpoint = this.store.load(this.runId).block(TIMEOUT);
		assertThat(checkpoint.resumeValues()).extracting(JsonNode::asString).containsExactly("yes", "later");
		assertThat(checkpoint.interrupts()).isEqualTo(2);
		assertThat(checkpoint.awaitsResume()).isFalse();
	}

	@Test
	void refusesAnAnswerPastTheNextIndex() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.saveResume(this.runId, 1, json("x"))
			.block(TIMEOUT)).withMessageContaining("in order");
	}

	@Test
	void deleteRemovesTheCheckpoint() {
		this.store.saveTask(this.runId, "a#0", json("a")).block(TIMEOUT);
		assertThat(this.store.delete(this.runId).block(TIMEOUT)).isTrue();
		assertThat(this.store.load(this.runId).blockOptional(TIMEOUT)).isEmpty();
		assertThat(this.store.delete(this.runId).block(TIMEOUT)).isFalse();
	}

	@Test
	void checkpointExpiresAfterItsTimeToLive() throws Exception {
		this.store.saveTask(this.runId, "a#0", json("a")).block(TIMEOUT);
		passTimeToLive();
		assertThat(this.store.load(this.runId).blockOptional(TIMEOUT)).isEmpty();
		// a write after expiry starts afresh
		this.store.saveTask(this.runId, "b#0", json("b")).block(TIMEOUT);
		assertThat(this.store.load(this.runId).block(TIMEOUT).tasks()).containsOnlyKeys("b#0");
	}

	@Test
	void refusesACheckpointInANewerFormat() {
		this.store.saveTask(this.runId, "a#0", json("a")).block(TIMEOUT);
		writeNewerFormat(this.runId);
		assertThatExceptionOfType(CheckpointFormatException.class)
			.isThrownBy(() -> this.store.load(this.runId).block(TIMEOUT))
			.withMessageContaining(this.runId)
			.withMessageContaining("newer");
		assertThatExceptionOfType(CheckpointFormatException.class)
			.isThrownBy(() -> this.store.saveTask(this.runId, "b#0", json("b")).block(TIMEOUT));
	}

	@Test
	void concurrentWritesOfOneRunAreAllKept() {
		reactor.core.publisher.Flux.range(0, 20)
			.flatMap((i) -> this.store.saveTask(this.runId, "t#" + i, json("r" + i)), 8)
			.collectList()
			.block(TIMEOUT);
		Checkpoint checkpoint = this.store.load(this.runId).block(TIMEOUT);
		assertThat(checkpoint.tasks()).hasSize(20);
		assertThat(checkpoint.version()).isEqualTo(20);
	}

	protected static JsonNode json(String text) {
		return JsonNodeFactory.instance.stringNode(text);
	}

	protected static List<String> keys(Checkpoint checkpoint) {
		return List.copyOf(checkpoint.tasks().keySet());
	}

}
