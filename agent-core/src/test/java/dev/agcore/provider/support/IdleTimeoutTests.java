package dev.agcore.provider.support;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IdleTimeout}, on virtual time.
 */
class IdleTimeoutTests {

	private static final Duration LIMIT = Duration.ofSeconds(10);

	// wall-clock time: the streams run on virtual time
	private static final Duration VERIFY_TIMEOUT = Duration.ofSeconds(5);

	@Test
	void aStreamThatKeepsTalkingIsNeverCutHoweverLongItLasts() {
		StepVerifier
			.withVirtualTime(() -> IdleTimeout.watch(Flux.interval(Duration.ofSeconds(9)).take(20), () -> LIMIT,
					() -> Flux.error(new TimeoutException("idle"))))
			.thenAwait(Duration.ofSeconds(9 * 20))
			.expectNextCount(20)
			.expectComplete()
			.verify(VERIFY_TIMEOUT);
	}

	@Test
	void aQuietStreamIsCancelledAndFollowedByWhatIdleGivesAtTheLimitAfterItsLastElement() {
		AtomicBoolean cancelled = new AtomicBoolean();
		StepVerifier
			.withVirtualTime(() -> IdleTimeout.watch(
					Flux.concat(Flux.interval(Duration.ofSeconds(3)).take(2), Flux.<Long>never())
						.doOnCancel(() -> cancelled.set(true)),
					() -> LIMIT, () -> Flux.error(new TimeoutException("idle"))))
			.thenAwait(Duration.ofSeconds(6))
			.expectNext(0L, 1L)
			.expectNoEvent(Duration.ofSeconds(10).minusMillis(1))
			.thenAwait(Duration.ofMillis(1))
			.verifyErrorMessage("idle");
		assertThat(cancelled).isTrue();
	}

	@Test
	void aStreamSilentFromTheStartTimesOutAtTheLimit() {
		StepVerifier
			.withVirtualTime(() -> IdleTimeout.watch(Flux.<String>never(), () -> LIMIT,
					() -> Flux.error(new TimeoutException("idle"))))
			.expectSubscription()
			.expectNoEvent(LIMIT.minusMillis(1))
			.thenAwait(Duration.ofMillis(1))
			.verifyErrorMessage("idle");
	}

	@Test
	void aLimitThatShortensAfterAnElementCountsFromThatElement() {
		AtomicBoolean answered = new AtomicBoolean();
		Sinks.Many<String> source = Sinks.many().unicast().onBackpressureBuffer();
		StepVerifier
			.withVirtualTime(() -> IdleTimeout.watch(source.asFlux().doOnNext((text) -> answered.set(true)),
					() -> answered.get() ? Duration.ofSeconds(1) : LIMIT, Flux::empty))
			.expectSubscription()
			.thenAwait(Duration.ofSeconds(2))
			.then(() -> source.tryEmitNext("done"))
			.expectNext("done")
			.expectNoEvent(Duration.ofMillis(999))
			.thenAwait(Duration.ofMillis(1))
			// what idle gives here is an empty end: the answer was complete
			.expectComplete()
			.verify(VERIFY_TIMEOUT);
	}

	@Test
	void noTimerIsLeftScheduledOnceTheStreamEndsEvenAfterTheLimitShortened() {
		RecordingScheduler timers = new RecordingScheduler();
		AtomicBoolean answered = new AtomicBoolean();
		Flux<String> source = Flux.just("answer", "done").doOnNext((text) -> answered.set("done".equals(text)));
		StepVerifier
			.create(IdleTimeout.watch(source, () -> answered.get() ? Duration.ofSeconds(1) : LIMIT, Flux::empty,
					() -> timers))
			.expectNext("answer", "done")
			.expectComplete()
			.verify(VERIFY_TIMEOUT);
		// one timer for the full limit, one for the shorter: a timer left behind would hold
		// the whole stream until it fires
		assertThat(timers.scheduled).hasSize(2).allMatch(Disposable::isDisposed);
	}

	@Test
	void anErrorOfTheSourcePassesAsItIs() {
		StepVerifier
			.withVirtualTime(() -> IdleTimeout.watch(Flux.<String>error(new IllegalStateException("broken")),
					() -> LIMIT, () -> Flux.error(new TimeoutException("idle"))))
			.verifyErrorMessage("broken");
	}

	private static final class RecordingScheduler implements Scheduler {

		private final VirtualTimeScheduler delegate = VirtualTimeScheduler.create();

		private final List<Disposable> scheduled = new CopyOnWriteArrayList<>();

		@Override
		public Disposable schedule(Runnable task) {
			return record(this.delegate.schedule(task));
		}

		@Override
		public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
			return record(this.delegate.schedule(task, delay, unit));
		}

		@Override
		public long now(TimeUnit unit) {
			return this.delegate.now(unit);
		}

		@Override
		public Worker createWorker() {
			return this.delegate.createWorker();
		}

		private Disposable record(Disposable task) {
			this.scheduled.add(task);
			return task;
		}

	}

}
