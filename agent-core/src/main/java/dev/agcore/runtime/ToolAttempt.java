package dev.agcore.runtime;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * One run of one tool call. The tool and its timeout race to end it; whichever settles it
 * first reports the outcome (metrics, and the exception middleware can see), so a call
 * that timed out is never also reported as the error its interruption caused.
 */
final class ToolAttempt {

	private final Turn turn;

	private final String callId;

	private final AtomicBoolean settled = new AtomicBoolean();

	private volatile TurnObservations.@Nullable Once observation;

	ToolAttempt(Turn turn, String callId) {
		this.turn = turn;
		this.callId = callId;
		turn.recordToolFailure(callId, null);
	}

	/** Return true for the one caller that ends this attempt. */
	boolean settle() {
		return this.settled.compareAndSet(false, true);
	}

	/** Tell middleware the exception behind the failure of this attempt. */
	void failedWith(@Nullable Throwable cause) {
		if (cause != null) {
			this.turn.recordToolFailure(this.callId, cause);
		}
	}

	/** Keep the call's observation, which whoever settles the attempt completes. */
	void observe(TurnObservations.Once observation) {
		this.observation = observation;
	}

	TurnObservations.@Nullable Once observation() {
		return this.observation;
	}

}
