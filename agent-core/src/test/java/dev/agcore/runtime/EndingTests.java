package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Ending} tells once how a Mono ended, before the signal goes on. */
class EndingTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final List<String> told = new CopyOnWriteArrayList<>();

	@Test
	void aValueIsToldOnceBeforeTheSubscriberGetsIt() {
		StepVerifier.create(Ending.watch(Mono.just("v"), new Recording()))
			.assertNext((value) -> assertThat(this.told).containsExactly("succeeded v"))
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.told).containsExactly("succeeded v");
	}

	@Test
	void anEmptyMonoSucceedsWithNull() {
		StepVerifier.create(Ending.watch(Mono.<String>empty(), new Recording())).expectComplete().verify(TIMEOUT);
		assertThat(this.told).containsExactly("succeeded null");
	}

	@Test
	void anErrorIsToldAndGoesOn() {
		StepVerifier.create(Ending.watch(Mono.<String>error(new IllegalStateException("boom")), new Recording()))
			.expectErrorMessage("boom")
			.verify(TIMEOUT);
		assertThat(this.told).containsExactly("failed boom");
	}

	@Test
	void aCancelBeforeTheEndIsToldAndNothingAfterIt() {
		Sinks.One<String> never = Sinks.one();
		StepVerifier.create(Ending.watch(never.asMono(), new Recording()))
			.expectSubscription()
			.thenCancel()
			.verify(TIMEOUT);
		never.tryEmitValue("late");
		assertThat(this.told).containsExactly("cancelled");
	}

	@Test
	void eachSubscriptionIsToldOnItsOwn() {
		Mono<String> watched = Ending.watch(Mono.just("v"), new Recording());
		watched.block(TIMEOUT);
		watched.block(TIMEOUT);
		assertThat(this.told).containsExactly("succeeded v", "succeeded v");
	}

	private final class Recording implements Ending.Listener<String> {

		@Override
		public void succeeded(@Nullable String value) {
			EndingTests.this.told.add("succeeded " + value);
		}

		@Override
		public void failed(Throwable error) {
			EndingTests.this.told.add("failed " + error.getMessage());
		}

		@Override
		public void cancelled() {
			EndingTests.this.told.add("cancelled");
		}

	}

}
