package dev.agcore.budget;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.bucket4j.TimeMeter;

/**
 * A bucket4j clock that tests move by hand: a budget's window passes without sleeping.
 */
public final class ManualTimeMeter implements TimeMeter {

	private final AtomicLong nanos = new AtomicLong(System.currentTimeMillis() * 1_000_000L);

	@Override
	public long currentTimeNanos() {
		return this.nanos.get();
	}

	@Override
	public boolean isWallClockBased() {
		return true;
	}

	/**
	 * Move the clock forward.
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

}
