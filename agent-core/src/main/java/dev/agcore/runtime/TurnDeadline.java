package dev.agcore.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
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

	private TurnDeadline() {
	}

	/**
	 * Bound a turn; the clock starts when it is subscribed.
	 * @param turn the whole turn, from loading the conversation to storing it
	 * @param agentName the agent, for the exception
	 * @param timeout the turn timeout
	 * @return the bounded turn
	 */
	static Mono<AgentResult> bound(Mono<AgentResult> turn, String agentName, Duration timeout) {
		return Mono.defer(() -> {
			TurnDeadline deadline = new TurnDeadline();
			// a timeout publisher that completes empty would fire too: once the turn finishes, never fire
			Mono<Long> expiry = Mono.delay(timeout)
				.flatMap((tick) -> deadline.decided.compareAndSet(false, true) ? Mono.just(tick) : Mono.never());
			return turn.timeout(expiry, Mono.error(() -> new TurnTimeoutException(agentName, timeout)))
				.contextWrite((context) -> context.put(TurnDeadline.class, deadline));
		});
	}

	/**
	 * Finish the turn unless its deadline passed first; from here on the deadline no
	 * longer applies.
	 * @param finish after-agent hooks and storing the turn
	 * @return the finished turn
	 */
	static Mono<AgentResult> finishing(Mono<AgentResult> finish) {
		return Mono.deferContextual((context) -> {
			@Nullable TurnDeadline deadline = context.getOrDefault(TurnDeadline.class, null);
			if (deadline == null || deadline.decided.compareAndSet(false, true)) {
				return finish;
			}
			// the deadline passed first: its timeout is already on its way and cancels this
			return Mono.never();
		});
	}

}
