package dev.agcore.autoconfigure.run;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of background runs ({@code agent.runs.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.runs")
public class RunProperties {

	/**
	 * Whether background runs are available: their store, worker, facade and endpoints.
	 */
	private boolean enabled = true;

	/**
	 * How long a claimed run's lease lasts unless its worker renews it; a run whose worker
	 * died is claimed again by another instance after this.
	 */
	private Duration lease = Duration.ofSeconds(30);

	/**
	 * How often a worker renews the leases of its runs and learns of cancels asked on
	 * other instances. Must be shorter than the lease.
	 */
	private Duration heartbeatInterval = Duration.ofSeconds(5);

	/**
	 * How often a worker asks the store for runs, and an event stream reads it, when no
	 * signal arrived.
	 */
	private Duration pollInterval = Duration.ofSeconds(1);

	/**
	 * The most runs of one session running at once, across all instances.
	 */
	private int maxPerSession = 1;

	/**
	 * The most times a run is claimed; a run whose worker died that often fails with
	 * lease_expired.
	 */
	private int maxAttempts = 3;

	/**
	 * How long a run may execute when its request sets no deadline.
	 */
	private Duration deadline = Duration.ofMinutes(30);

	/**
	 * How long finished runs and their events are kept before they are purged.
	 */
	private Duration retention = Duration.ofDays(7);

	private final Worker worker = new Worker();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getLease() {
		return this.lease;
	}

	public void setLease(Duration lease) {
		this.lease = lease;
	}

	public Duration getHeartbeatInterval() {
		return this.heartbeatInterval;
	}

	public void setHeartbeatInterval(Duration heartbeatInterval) {
		this.heartbeatInterval = heartbeatInterval;
	}

	public Duration getPollInterval() {
		return this.pollInterval;
	}

	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

	public int getMaxPerSession() {
		return this.maxPerSession;
	}

	public void setMaxPerSession(int maxPerSession) {
		this.maxPerSession = maxPerSession;
	}

	public int getMaxAttempts() {
		return this.maxAttempts;
	}

	public void setMaxAttempts(int maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	public Duration getDeadline() {
		return this.deadline;
	}

	public void setDeadline(Duration deadline) {
		this.deadline = deadline;
	}

	public Duration getRetention() {
		return this.retention;
	}

	public void setRetention(Duration retention) {
		this.retention = retention;
	}

	public Worker getWorker() {
		return this.worker;
	}

	/**
	 * The worker of this instance.
	 */
	public static class Worker {

		/**
		 * Whether this instance executes runs; false for an instance that only submits and
		 * streams them.
		 */
		private boolean enabled = true;

		/**
		 * The most runs executing at once on this instance.
		 */
		private int concurrency = 4;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(int concurrency) {
			this.concurrency = concurrency;
		}

	}

}
