package dev.agcore.run;

import java.time.Duration;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RunEventStream}.
 */
class RunEventStreamTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final InMemoryRunStore store = new InMemoryRunStore();

	private final RunEventStream stream = new RunEventStream(this.store, Duration.ofMillis(100));

	@Test
	void replaysStoredEventsThenLiveOnesAndCompletesAfterTheEnd() {
		Run run = running();
		append(run, "text");
		append(run, "text");
		StepVerifier.create(this.stream.events(run.id(), 0).map(RunEvent::sequence))
			.expectNext(1L, 2L)
			.then(() -> append(run, "tool_call"))
			.expectNext(3L)
			.then(() -> {
				append(run, "text");
				append(run, RunEvent.COMPLETED);
			})
			.expectNext(4L, 5L)
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void resumesAfterTheLastEventSeen() {
		Run run = running();
		for (int i = 0; i < 4; i++) {
			append(run, "text");
		}
		append(run, RunEvent.COMPLETED);
		StepVerifier.create(this.stream.events(run.id(), 3).map(RunEvent::sequence))
			.expectNext(4L, 5L)
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void completesAtOnceForAFinishedRunWithNothingAfter() {
		Run run = this.store.submit(request()).block(TIMEOUT);
		this.store.cancel(run.id()).block(TIMEOUT);
		StepVerifier.create(this.stream.events(run.id(), 1)).expectComplete().verify(TIMEOUT);
		StepVerifier.create(this.stream.events(run.id(), 0).map(RunEvent::type))
			.expectNext(RunEvent.CANCELLED)
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void replayOfAResumedRunGoesPastItsInterrupt() {
		Run run = running();
		append(run, RunEvent.INTERRUPTED);
		append(run, RunEvent.STARTED);
		append(run, RunEvent.COMPLETED);
		StepVerifier.create(this.stream.events(run.id(), 0).map(RunEvent::type))
			.expectNext(RunEvent.INTERRUPTED, RunEvent.STARTED, RunEvent.COMPLETED)
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void unknownRunFails() {
		StepVerifier.create(this.stream.events("nope", 0)).expectError(RunNotFoundException.class).verify(TIMEOUT);
	}

	@Test
	void manyConcurrentAppendsArriveOnceEachInOrder() {
		Run run = running();
		int count = 300;
		Thread writer = new Thread(() -> {
			for (int i = 0; i < count; i++) {
				append(run, "text");
			}
			append(run, RunEvent.COMPLETED);
		});
		StepVerifier.create(this.stream.events(run.id(), 0).map(RunEvent::sequence).collectList())
			.then(writer::start)
			.assertNext((sequences) -> {
				assertThat(sequences).hasSize(count + 1);
				for (int i = 0; i < sequences.size(); i++) {
					assertThat(sequences.get(i)).isEqualTo(i + 1);
				}
			})
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void aLostSignalIsMadeUpByThePoll() {
		// a store whose signal never fires: the poll alone delivers
		RunStore deaf = new SilentStore(this.store);
		RunEventStream polled = new RunEventStream(deaf, Duration.ofMillis(50));
		Run run = running();
		StepVerifier.create(polled.events(run.id(), 0).map(RunEvent::sequence))
			.then(() -> append(run, "text"))
			.expectNext(1L)
			.then(() -> append(run, RunEvent.FAILED))
			.expectNext(2L)
			.expectComplete()
			.verify(TIMEOUT);
	}

	private Run running() {
		Run run = this.store.submit(request()).block(TIMEOUT);
		this.store.claim("w1", new RunStore.ClaimSettings(1, Duration.ofMinutes(1), 1, 1)).blockLast(TIMEOUT);
		return run;
	}

	private void append(Run run, String type) {
		this.store.append(run.id(), type, AgentJson.mapper().createObjectNode()).block(TIMEOUT);
	}

	private static RunRequest request() {
		JsonNode input = AgentJson.mapper().createObjectNode();
		return RunRequest.of("agent", "assistant", "s1", input);
	}

	/**
	 * A store whose append signal never fires.
	 */
	private static final class SilentStore extends ForwardingRunStore {

		SilentStore(RunStore delegate) {
			super(delegate);
		}

		@Override
		public Flux<String> appended() {
			return Flux.never();
		}

	}

}
