package dev.agcore.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

/**
 * The deadline of one turn. A turn that runs past its timeout fails with a
 * {@link TurnTimeoutException} and whatever still runs (a model call, a tool, a hook) is
 * cancelled, unless the turn has begun to finish: finishing (after-agent hooks and the
 * store write) is never cut short, so a turn reported as timed out stored nothing and a
 * stored turn is never reported as timed out. Whichever comes first wins.
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
		// a timeout publisher that completes empty would fire too: once the turn finishes, never fire
		Mono<Long> expiry = Mono.delay(timeout)
			.flatMap((tick) -> this.decided.compareAndSet(false, true) ? Mono.just(tick) : Mono.never());
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
