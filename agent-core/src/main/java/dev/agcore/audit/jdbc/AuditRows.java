package dev.agcore.audit.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import dev.agcore.audit.AuditEvent;
import dev.agcore.memory.jdbc.JdbcOperations;
import org.jspecify.annotations.Nullable;

/**
 * Audit rows as the database keeps them, and the check of their chain.
 */
final class AuditRows {

	/** The size of the short text columns (agent, session, user, tool, call). */
	static final int NAME_LENGTH = 256;

	static final int OUTCOME_LENGTH = 64;

	private AuditRows() {
	}

	/**
	 * The event as it can be stored, and hashed as stored: to the microsecond, texts cut to
	 * their columns, NUL and unpaired surrogates replaced.
	 */
	static AuditEvent storable(AuditEvent event) {
		return new AuditEvent(event.kind(), name(event.agent()), name(event.sessionId()), nullableName(event.userId()),
				nullableName(event.tool()), nullableName(event.toolCallId()), clean(event.arguments()),
				cut(clean(event.outcome()), OUTCOME_LENGTH), clean(event.detail()),
				JdbcOperations.truncate(event.time()), event.id());
	}

	private static String name(String text) {
		return cut(clean(text), NAME_LENGTH);
	}

	private static @Nullable String nullableName(@Nullable String text) {
		return (text != null) ? name(text) : null;
	}

	private static String cut(String text, int max) {
		if (text.length() <= max) {
			return text;
		}
		int end = max - 1;
		if (Character.isHighSurrogate(text.charAt(end - 1))) {
			end--;
		}
		return text.substring(0, end) + "…";
	}

	static String clean(String text) {
		StringBuilder cleaned = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			boolean bad = c == '\0' || (Character.isHighSurrogate(c)
					&& (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))))
					|| (Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1))));
			if (bad && cleaned == null) {
				cleaned = new StringBuilder(text.length()).append(text, 0, i);
			}
			if (cleaned != null) {
				cleaned.append(bad ? '\uFFFD' : c);
			}
		}
		return (cleaned != null) ? cleaned.toString() : text;
	}

	static AuditChainVerification verify(Connection connection, String table, String chainTable) throws SQLException {
		long headSeq;
		String headHash;
		try (PreparedStatement head = connection
			.prepareStatement("SELECT chain_seq, row_hash FROM " + chainTable + " WHERE id = 1");
				ResultSet row = head.executeQuery()) {
			if (!row.next()) {
				return AuditChainVerification.broken(0, 0, 0, 0, "the chain's head row in " + chainTable + " is missing");
			}
			headSeq = row.getLong(1);
			headHash = row.getString(2);
		}
		boolean autoCommit = connection.getAutoCommit();
		// PostgreSQL reads in pages only within a transaction
		connection.setAutoCommit(false);
		try (PreparedStatement select = connection.prepareStatement("SELECT chain_seq, prev_hash, row_hash, "
				+ "event_id, event_time, kind, agent, session_id, user_id, tool, tool_call_id, arguments, outcome, "
				+ "detail FROM " + table + " WHERE chain_seq IS NOT NULL ORDER BY chain_seq")) {
			select.setFetchSize(500);
			long rows = 0;
			long first = 0;
			long last = 0;
			@Nullable String previous = null;
			try (ResultSet row = select.executeQuery()) {
				while (row.next()) {
					long seq = row.getLong(1);
					@Nullable String prev = row.getString(2);
					String hash = row.getString(3);
					rows++;
					if (first == 0) {
						first = seq;
						// the oldest row kept: rows before it were purged or deleted, its link is taken as it is
						previous = (seq == 1) ? "" : prev;
					}
					else if (seq != last + 1) {
						return AuditChainVerification.broken(rows, first, last, last,
								"rows " + (last + 1) + " to " + (seq - 1) + " are missing after row " + last);
					}
					if (!Objects.equals(prev, previous)) {
						return AuditChainVerification.broken(rows, first, seq, seq,
								"row " + seq + " does not follow the row before it (edited or replaced)");
					}
					String expected = ChainHash.of((prev != null) ? prev : "", seq, fields(row));
					if (!expected.equals(hash)) {
						return AuditChainVerification.broken(rows, first, seq, seq,
								"row " + seq + " does not hold what was written (edited)");
					}
					previous = hash;
					last = seq;
				}
			}
			if (last != headSeq || (last > 0 && !headHash.equals(previous))) {
				return AuditChainVerification.broken(rows, first, last, last, (headSeq > last)
						? "rows " + (last + 1) + " to " + headSeq + " are missing at the end of the chain"
						: "the chain's head (row " + headSeq + ") does not match its newest row " + last);
			}
			return AuditChainVerification.intact(rows, first, last);
		}
		finally {
			connection.rollback();
			connection.setAutoCommit(autoCommit);
		}
	}

	private static List<@Nullable String> fields(ResultSet row) throws SQLException {
		return Arrays.asList(row.getString(4), row.getTimestamp(5).toInstant().toString(), row.getString(6),
				row.getString(7), row.getString(8), row.getString(9), row.getString(10), row.getString(11),
				row.getString(12), row.getString(13), row.getString(14));
	}

}
