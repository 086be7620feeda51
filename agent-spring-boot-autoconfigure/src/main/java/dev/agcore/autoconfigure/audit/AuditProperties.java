package dev.agcore.autoconfigure.audit;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

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

	private final Jdbc jdbc = new Jdbc();

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

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	/**
	 * The audit table ({@code agent.audit.jdbc.*}).
	 */
	public static class Jdbc {

		/**
		 * Whether audit events are also written to the table <prefix>audit_event of the
		 * application's DataSource (prefix, platform and schema creation as
		 * agent.memory.jdbc.*).
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
