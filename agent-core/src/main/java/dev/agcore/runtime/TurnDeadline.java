package dev.agcore.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The deadline of one turn. A turn that runs past its timeout fails with a
 * {@link TurnTimeoutException} and whatever still runs (a model call, a tool, a hook) is
 * cancelled, unless the turn has begun to finish: finishing (after-agent hooks and the
 * store write) is never cut short, so a turn reported as timed out stored nothing and a
 * stored turn is never reported as timed out. Whichever comes first wins.
 * <p>
 * The clock is the shared {@link DeadlineTicker}, not a timer task per turn: a turn's
 * timeout is kept within a tick.
 */
final class TurnDeadline {

	/** true once the deadline passed or the turn began to finish. */
	private final AtomicBoolean decided = new AtomicBoolean();

	/**
	 * Bound a turn; the clock starts when it is subscribed.
	 * @param turn the whole turn, from loading the conversation to storing it
	 * @param agentName the agent, for the exception
	 * @param timeout the turn timeout
	 * @return the bounded turn
	 */
	Mono<AgentResult> bound(Mono<AgentResult> turn, String agentName, Duration timeout) {
		// the timeout fires only if the turn had not begun to finish: never once it has
		Mono<Long> expiry = Mono.create((sink) -> {
			long deadline = System.nanoTime() + timeout.toNanos();
			DeadlineTicker.Deadline watched = new DeadlineTicker.Deadline() {

				@Override
				public long deadlineNanos() {
					return deadline;
				}

				@Override
				public void expire() {
					if (TurnDeadline.this.decided.compareAndSet(false, true)) {
						// the turn fails off the ticker's thread
						Schedulers.parallel().schedule(() -> sink.success(0L));
					}
				}

			};
			DeadlineTicker.add(watched);
			sink.onCancel(() -> DeadlineTicker.remove(watched));
		});
		return turn.timeout(expiry, Mono.error(() -> new TurnTimeoutException(agentName, timeout)));
	}

	/**
	 * Finish the turn unless its deadline passed first; from here on the deadline no
	 * longer applies.
	 * @param finish after-agent hooks and storing the turn, assembled only if the turn
	 * finishes
	 * @return the finished turn
	 */
	Mono<AgentResult> finishing(Supplier<Mono<AgentResult>> finish) {
		return Mono.defer(() -> {
			if (this.decided.compareAndSet(false, true)) {
				return finish.get();
			}
			// the deadline passed first: its timeout is already on its way and cancels this
			return Mono.never();
		});
	}

}
