package dev.agcore.run;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * How a {@link RunWorker} claims and runs.
 *
 * @param concurrency the most runs executing at once on this instance, at least 1
 * @param lease how long a claimed run's lease lasts unless renewed
 * @param heartbeatInterval how often leases are renewed; shorter than {@code lease}
 * @param pollInterval how often the store is asked for runs without a signal
 * @param maxPerSession the most runs of one session running at once, at least 1
 * @param maxAttempts the most claims of one run, at least 1
 * @param deadline how long a run may execute when its request sets no deadline
 * @param owner this worker's id, unique per instance
 * @since 0.1.0
 */
public record RunWorkerSettings(int concurrency, Duration lease, Duration heartbeatInterval, Duration pollInterval,
		int maxPerSession, int maxAttempts, Duration deadline, String owner) {

	public RunWorkerSettings {
		if (concurrency < 1 || maxPerSession < 1 || maxAttempts < 1) {
			throw new IllegalArgumentException("concurrency, maxPerSession and maxAttempts must be at least 1");
		}
		positive(lease, "lease");
		positive(heartbeatInterval, "heartbeatInterval");
		positive(pollInterval, "pollInterval");
		positive(deadline, "deadline");
		if (heartbeatInterval.compareTo(lease) >= 0) {
			throw new IllegalArgumentException("'heartbeatInterval' (" + heartbeatInterval
					+ ") must be shorter than 'lease' (" + lease + "), or leases expire between heartbeats");
		}
		Objects.requireNonNull(owner, "'owner' must not be null");
		if (owner.isBlank()) {
			throw new IllegalArgumentException("'owner' must not be blank");
		}
	}

	/**
	 * The defaults: 4 runs at once, a 30 s lease renewed every 5 s, a poll each second, one
	 * run per session, 3 attempts, a 30 min deadline, and an owner id made of the host name
	 * and a random part.
	 * @return the settings
	 */
	public static RunWorkerSettings defaults() {
		return new RunWorkerSettings(4, Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(1), 1, 3,
				Duration.ofMinutes(30), newOwner());
	}

	public RunWorkerSettings withConcurrency(int concurrency) {
		return new RunWorkerSettings(concurrency, this.lease, this.heartbeatInterval, this.pollInterval,
				this.maxPerSession, this.maxAttempts, this.deadline, this.owner);
	}

	public RunWorkerSettings withLease(Duration lease, Duration heartbeatInterval) {
		return new RunWorkerSettings(this.concurrency, lease, heartbeatInterval, this.pollInterval, this.maxPerSession,
				this.maxAttempts, this.deadline, this.owner);
	}

	public RunWorkerSettings withPollInterval(Duration pollInterval) {
		return new RunWorkerSettings(this.concurrency, this.lease, this.heartbeatInterval, pollInterval,
				this.maxPerSession, this.maxAttempts, this.deadline, this.owner);
	}

	public RunWorkerSettings withMaxPerSession(int maxPerSession) {
		return new RunWorkerSettings(this.concurrency, this.lease, this.heartbeatInterval, this.pollInterval,
				maxPerSession, this.maxAttempts, this.deadline, this.owner);
	}

	public RunWorkerSettings withMaxAttempts(int maxAttempts) {
		return new RunWorkerSettings(this.concurrency, this.lease, this.heartbeatInterval, this.pollInterval,
				this.maxPerSession, maxAttempts, this.deadline, this.owner);
	}

	public RunWorkerSettings withDeadline(Duration deadline) {
		return new RunWorkerSettings(this.concurrency, this.lease, this.heartbeatInterval, this.pollInterval,
				this.maxPerSession, this.maxAttempts, deadline, this.owner);
	}

	public RunWorkerSettings withOwner(String owner) {
		return new RunWorkerSettings(this.concurrency, this.lease, this.heartbeatInterval, this.pollInterval,
				this.maxPerSession, this.maxAttempts, this.deadline, owner);
	}

	RunStore.ClaimSettings claimSettings(int max) {
		return new RunStore.ClaimSettings(max, this.lease, this.maxPerSession, this.maxAttempts);
	}

	/**
	 * A new owner id: this host's name and a random part, so two workers on one host
	 * differ.
	 * @return the id
	 */
	public static String newOwner() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (Exception ex) {
			host = "unknown-host";
		}
		return host + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	private static void positive(Duration value, String name) {
		Objects.requireNonNull(value, "'" + name + "' must not be null");
		if (value.isZero() || value.isNegative()) {
			throw new IllegalArgumentException("'" + name + "' must be positive, was " + value);
		}
	}

}
