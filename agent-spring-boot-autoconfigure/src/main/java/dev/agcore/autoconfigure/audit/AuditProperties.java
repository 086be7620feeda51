package dev.agcore.autoconfigure.audit;

import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The audit trail ({@code agent.audit.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.audit")
public class AuditProperties {

	/**
	 * Whether tool calls, approval decisions, permission denials and budget refusals are
	 * published as AgentAuditEvent application events and to AuditListener beans.
	 */
	private boolean enabled = true;

	/**
	 * Most characters of a call's arguments an audit event holds, after redaction.
	 */
	private int maxArgumentsLength = 2000;

	/**
	 * Whether each row of the audit table holds the SHA-256 hash of the row before it and of
	 * its own content, so that a row edited or deleted is found by JdbcAuditSink.verify().
	 * Every instance writing the table must set it alike.
	 */
	private boolean chain;

	private final Jdbc jdbc = new Jdbc();

	private final Outbox outbox = new Outbox();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxArgumentsLength() {
		return this.maxArgumentsLength;
	}

	public void setMaxArgumentsLength(int maxArgumentsLength) {
		this.maxArgumentsLength = maxArgumentsLength;
	}

	public boolean isChain() {
		return this.chain;
	}

	public void setChain(boolean chain) {
		this.chain = chain;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Outbox getOutbox() {
		return this.outbox;
	}

	/**
	 * The outbox audit events pass through on their way to the audit table
	 * ({@code agent.audit.outbox.*}): a journal on the local disk, forced on each append,
	 * drained to the table with retries.
	 */
	public static class Outbox {

		/**
		 * Directory of the journal, of this instance alone and on storage that outlives it
		 * (a volume, in a container). Events not yet in the table are sent from it after a
		 * restart.
		 */
		private Path directory = Path.of("agent-audit-outbox");

		/**
		 * Bytes of events not yet in the table the journal holds before tool calls are
		 * refused (an action the trail could not record does not happen); refusals and
		 * calls already running are still recorded past it.
		 */
		private DataSize maxBytes = DataSize.ofMegabytes(64);

		/**
		 * Most events written to the table in one transaction.
		 */
		private int batchSize = 100;

		/**
		 * First pause before writing again after the table could not be reached; doubled
		 * after each failure up to max-backoff.
		 */
		private Duration minBackoff = Duration.ofMillis(200);

		/**
		 * Longest pause between attempts while the table cannot be reached.
		 */
		private Duration maxBackoff = Duration.ofSeconds(30);

		/**
		 * How long shutting down waits for the journal to be written to the table; what is
		 * left is sent after the next start.
		 */
		private Duration shutdownTimeout = Duration.ofSeconds(5);

		public Path getDirectory() {
			return this.directory;
		}

		public void setDirectory(Path directory) {
			this.directory = directory;
		}

		public DataSize getMaxBytes() {
			return this.maxBytes;
		}

		public void setMaxBytes(DataSize maxBytes) {
			this.maxBytes = maxBytes;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

		public void setBatchSize(int batchSize) {
			this.batchSize = batchSize;
		}

		public Duration getMinBackoff() {
			return this.minBackoff;
		}

		public void setMinBackoff(Duration minBackoff) {
			this.minBackoff = minBackoff;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public Duration getShutdownTimeout() {
			return this.shutdownTimeout;
		}

		public void setShutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
		}

	}

	/**
	 * The audit table ({@code agent.audit.jdbc.*}).
	 */
	public static class Jdbc {

		/**
		 * Whether audit events are also written to the table <prefix>audit_event of the
		 * application's DataSource (prefix, platform and schema creation as
		 * agent.memory.jdbc.*), each once, through the outbox of agent.audit.outbox.*.
		 */
		private boolean enabled;

		/**
		 * How long audit rows are kept; older ones are deleted by later writes, at most once
		 * an hour. Unset keeps every row (delete them yourself as your retention policy
		 * requires).
		 */
		private @Nullable Duration retention;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Duration getRetention() {
			return this.retention;
		}

		public void setRetention(@Nullable Duration retention) {
			this.retention = retention;
		}

	}

}
