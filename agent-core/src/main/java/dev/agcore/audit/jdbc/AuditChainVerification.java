package dev.agcore.audit.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * What {@link JdbcAuditSink#verify()} found in the hash chain of the audit table.
 *
 * @param intact whether every chained row is as it was written and none is missing
 * between the first row kept and the chain's head
 * @param rows how many chained rows were checked
 * @param firstSeq the sequence number of the oldest chained row, 0 when there is none;
 * more than 1 when older rows were purged (a retention) or deleted
 * @param lastSeq the sequence number of the newest chained row, 0 when there is none
 * @param brokenAt the sequence number of the first row that was edited, or after which
 * rows are missing; {@code null} when intact
 * @param problem what is wrong, empty when intact
 * @since 0.1.0
 */
public record AuditChainVerification(boolean intact, long rows, long firstSeq, long lastSeq,
		@Nullable Long brokenAt, String problem) {

	static AuditChainVerification intact(long rows, long firstSeq, long lastSeq) {
		return new AuditChainVerification(true, rows, firstSeq, lastSeq, null, "");
	}

	static AuditChainVerification broken(long rows, long firstSeq, long lastSeq, long brokenAt, String problem) {
		return new AuditChainVerification(false, rows, firstSeq, lastSeq, brokenAt, problem);
	}

}
