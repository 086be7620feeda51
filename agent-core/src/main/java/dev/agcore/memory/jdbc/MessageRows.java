package dev.agcore.memory.jdbc;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.memory.Conversation;
import dev.agcore.memory.codec.MemoryCodec;
import dev.agcore.message.Message;
import org.jspecify.annotations.Nullable;

/**
 * The rows of {@code <prefix>message}: one per message, numbered by a sequence that is
 * contiguous within a session, so the newest messages are a range of the primary key.
 * Called inside the transaction of a {@link JdbcConversationStore} operation.
 */
final class MessageRows {

	private static final MemoryCodec CODEC = MemoryCodec.get();

	private static final String TOOL = "tool";

	private final JdbcOperations jdbc;

	private final String sessions;

	private final String messages;

	MessageRows(JdbcOperations jdbc, String sessions, String messages) {
		this.jdbc = jdbc;
		this.sessions = sessions;
		this.messages = messages;
	}

	/**
	 * Read a session's version and its messages from {@code fromEnd} before its end on (all
	 * of them when null), in one statement, so both come from the same snapshot.
	 */
	Conversation read(String sessionId, @Nullable Long fromEnd) {
		String range = (fromEnd != null) ? " AND m.seq >= s.next_seq - ?" : "";
		List<Object> params = (fromEnd != null) ? List.of(fromEnd, sessionId) : List.of(sessionId);
		List<Object[]> rows = this.jdbc.jdbcClient()
			.sql("SELECT s.version, m.payload FROM " + this.sessions + " s LEFT JOIN " + this.messages
					+ " m ON m.session_id = s.session_id" + range + " WHERE s.session_id = ? ORDER BY m.seq")
			.params(params)
			.query((rs, row) -> new Object[] { rs.getLong(1), rs.getString(2) })
			.list();
		if (rows.isEmpty()) {
			return Conversation.EMPTY;
		}
		List<Message> loaded = new ArrayList<>(rows.size());
		for (Object[] row : rows) {
			if (row[1] != null) {
				loaded.add(CODEC.decodeMessage((String) row[1]));
			}
		}
		return new Conversation(loaded, (long) rows.get(0)[0]);
	}

	/** Insert messages numbered from {@code firstSeq}, in one batch. */
	void insert(String sessionId, long firstSeq, List<Message> added, Instant now) {
		if (added.isEmpty()) {
			return;
		}
		OffsetDateTime timestamp = JdbcOperations.timestamp(now);
		List<Object[]> rows = new ArrayList<>(added.size());
		for (int i = 0; i < added.size(); i++) {
			Message message = added.get(i);
			rows.add(new Object[] { sessionId, firstSeq + i, MemoryCodec.kind(message), CODEC.encode(message), timestamp });
		}
		this.jdbc.jdbcTemplate()
			.batchUpdate("INSERT INTO " + this.messages + " (session_id, seq, kind, payload, created_at) "
					+ "VALUES (?, ?, ?, ?, ?)", rows);
	}

	/**
	 * Delete the oldest messages so that at most {@code max} are kept, moving the cut past
	 * tool results so the kept history does not start with a result whose call is gone.
	 * @return how many were deleted
	 */
	int trim(String sessionId, long nextSeq, int max) {
		long cut = nextSeq - max;
		long start = this.jdbc.jdbcClient()
			.sql("SELECT MIN(seq) FROM " + this.messages + " WHERE session_id = ? AND seq >= ? AND kind <> ?")
			.params(sessionId, cut, TOOL)
			.query((rs, row) -> {
				long seq = rs.getLong(1);
				return rs.wasNull() ? -1L : seq;
			})
			.single();
		long keepFrom = (start >= 0) ? start : nextSeq;
		return this.jdbc.jdbcClient()
			.sql("DELETE FROM " + this.messages + " WHERE session_id = ? AND seq < ?")
			.params(sessionId, keepFrom)
			.update();
	}

	/** Delete every message of a session. */
	void deleteAll(String sessionId) {
		this.jdbc.jdbcClient().sql("DELETE FROM " + this.messages + " WHERE session_id = ?").param(sessionId).update();
	}

	/**
	 * Delete the sessions last changed at or before an instant, with their messages.
	 * @return how many sessions were deleted
	 */
	int deleteSessionsChangedBefore(OffsetDateTime cut) {
		this.jdbc.jdbcClient()
			.sql("DELETE FROM " + this.messages + " WHERE session_id IN (SELECT session_id FROM " + this.sessions
					+ " WHERE updated_at <= ?)")
			.param(cut)
			.update();
		return this.jdbc.jdbcClient().sql("DELETE FROM " + this.sessions + " WHERE updated_at <= ?").param(cut).update();
	}

	/**
	 * Delete the least recently changed sessions beyond a capacity, with their messages,
	 * passing over sessions with a paused turn while there are others.
	 * @return how many sessions were deleted
	 */
	int deleteSessionsBeyond(int maxSessions) {
		long total = this.jdbc.jdbcClient().sql("SELECT COUNT(*) FROM " + this.sessions).query(Long.class).single();
		if (total <= maxSessions) {
			return 0;
		}
		List<String> evicted = this.jdbc.jdbcClient()
			.sql("SELECT session_id FROM " + this.sessions
					+ " ORDER BY CASE WHEN pending IS NULL THEN 0 ELSE 1 END, updated_at, session_id LIMIT ?")
			.param(total - maxSessions)
			.query(String.class)
			.list();
		int deleted = 0;
		for (String sessionId : evicted) {
			deleteAll(sessionId);
			deleted += this.jdbc.jdbcClient()
				.sql("DELETE FROM " + this.sessions + " WHERE session_id = ?")
				.param(sessionId)
				.update();
		}
		return deleted;
	}

}
