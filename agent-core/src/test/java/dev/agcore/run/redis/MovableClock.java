package dev.agcore.run.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that tests move forward, shared by the store instances of a test like the
 * synchronized clocks of real instances.
 */
final class MovableClock extends Clock {

	private volatile Instant now;

	MovableClock(Instant start) {
		this.now = start;
	}

	void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

	@Override
	public Instant instant() {
		return this.now;
	}

}
