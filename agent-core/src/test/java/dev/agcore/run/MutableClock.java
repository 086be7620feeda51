package dev.agcore.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that tests move by hand, to expire leases, sessions and checkpoints and pass
 * {@code notBefore} without waiting; always in UTC. Public so that the tests of other
 * packages can use it.
 */
public final class MutableClock extends Clock {

	private volatile Instant now;

	public MutableClock(Instant now) {
		this.now = now;
	}

	public static MutableClock now() {
		return new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));
	}

	public void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	public void set(Instant now) {
		this.now = now;
	}

	@Override
	public Instant instant() {
		return this.now;
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

}
