package dev.agcore.memory.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import dev.agcore.memory.Conversation;
import dev.agcore.memory.ConversationConflictException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.codec.MemoryCodec;
import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.dao.DuplicateKeyException;

/**
 * Keeps conversations in a relational database (PostgreSQL, H2), shared by every instance
 * of the application: one row per session in {@code <prefix>session} holds the version and
 * the paused turn, one row per message in {@code <prefix>message}.
 * <p>
 * Every change is one transaction that first moves the session's version on with a
 * conditional update ({@code ... WHERE version = ?}, or an insert for a new session): of
 * two overlapping changes exactly one matches, the other fails with a
 * {@link ConversationConflictException} and writes nothing. An append is a constant number
 * of statements whatever the length of the history: the version update, one batched
 * insert and, beyond the capacity per session, one delete of the oldest messages (never
 * leaving a tool result without its call). A paused turn is claimed by a conditional
 * update on a hash of its JSON; a claim older than the claim timeout (an instance that
 * crashed while resuming) expires. Sessions unused for longer than the time-to-live, and
 * beyond the capacity in sessions, are removed by {@link #purgeExpired()}, which the
 * application runs on a schedule.
 *
 * @since 0.1.0
 */
public final class JdbcConversationStore implements ConversationStore {

	private static final MemoryCodec CODEC = MemoryCodec.get();

	private final JdbcOperations jdbc;

	private final String sessions;

	private final MessageRows rows;

	private final int maxMessagesPerSession;

	private final int maxSessions;

	private final Duration sessionTtl;

	private final Duration claimTimeout;

	private final Clock clock;

	private JdbcConversationStore(Builder builder) {
		this.jdbc = new JdbcOperations("JDBC conversation store", builder.dataSource, builder.tablePrefix);
		this.sessions = builder.tablePrefix + "session";
		this.rows = new MessageRows(this.jdbc, this.sessions, builder.tablePrefix + "message");
		this.maxMessagesPerSession = builder.maxMessagesPerSession;
		this.maxSessions = builder.maxSessions;
		this.sessionTtl = builder.sessionTtl;
		this.claimTimeout = builder.claimTimeout;
		this.clock = builder.clock;
	}

	/**
	 * Start building a store on a database whose tables exist (see {@link JdbcMemorySchema}).
	 * @param dataSource the database
	 * @return the builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	@Override
	public Mono<Conversation> load(String sessionId) {
		return this.jdbc.inTransaction(() -> this.rows.read(sessionId, null));
	}

	@Override
	public Mono<Conversation> loadRecent(String sessionId, int maxMessages) {
		if (maxMessages < 1) {
			return Mono.error(new IllegalArgumentException("'maxMessages' must be at least 1, was " + maxMessages));
		}
		// sequence numbers are contiguous: the newest n are a range of the primary key; one
		// more is read to tell whether the window starts with a result whose call is left out
		return this.jdbc.inTransaction(() -> this.rows.read(sessionId, maxMessages + 1L).newest(maxMessages));
	}

	@Override
	public Mono<Void> append(String sessionId, long expectedVersion, List<Message> messages) {
		List<Message> added = List.copyOf(messages);
		return this.jdbc.inTransaction(() -> {
			change(sessionId, expectedVersion, added, "", List.of());
			return null;
		});
	}

	@Override
	public Mono<Void> replace(String sessionId, long expectedVersion, List<Message> messages) {
		List<Message> replacement = bounded(List.copyOf(messages));
		return this.jdbc.inTransaction(() -> {
			Instant now = now();
			if (expectedVersion == 0) {
				insertSession(sessionId, expectedVersion, replacement.size(), null, now);
			}
			else {
				int updated = this.jdbc.jdbcClient()
					.sql("UPDATE " + this.sessions + " SET version = version + 1, next_seq = ?, message_count = ?, "
							+ "updated_at = ? WHERE session_id = ? AND version = ?")
					.params(replacement.size(), replacement.size(), JdbcOperations.timestamp(now), sessionId,
							expectedVersion)
					.update();
				if (updated == 0) {
					throw new ConversationConflictException(sessionId, expectedVersion);
				}
				this.rows.deleteAll(sessionId);
			}
			this.rows.insert(sessionId, 0, replacement, now);
			return null;
		});
	}

	@Override
	public Mono<PendingTurn> loadPending(String sessionId) {
		return this.jdbc.inTransaction(() -> {
			List<String> pending = this.jdbc.jdbcClient()
				.sql("SELECT pending FROM " + this.sessions + " WHERE session_id = ? AND pending IS NOT NULL")
				.param(sessionId)
				.query(String.class)
				.list();
			return pending.isEmpty() ? null : CODEC.decodePendingTurn(pending.get(0));
		});
	}

	@Override
	public Mono<Void> savePending(String sessionId, long expectedVersion, PendingTurn pending) {
		String json = CODEC.encode(pending);
		return this.jdbc.inTransaction(() -> {
			change(sessionId, expectedVersion, List.of(), ", pending = ?, pending_hash = ?, pending_claimed_at = NULL",
					List.of(json, hash(json)), json);
			return null;
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The turn is compared by the SHA-256 hash of its JSON, kept next to it, so the
	 * comparison does not depend on how the database compares large text.
	 */
	@Override
	public Mono<Boolean> claimPending(String sessionId, PendingTurn expected) {
		String hash = hash(CODEC.encode(expected));
		return this.jdbc.inTransaction(() -> {
			Instant now = now();
			int claimed = this.jdbc.jdbcClient()
				.sql("UPDATE " + this.sessions + " SET pending_claimed_at = ? WHERE session_id = ? AND pending_hash = ? "
						+ "AND (pending_claimed_at IS NULL OR pending_claimed_at <= ?)")
				.params(JdbcOperations.timestamp(now), sessionId, hash,
						JdbcOperations.timestamp(now.minus(this.claimTimeout)))
				.update();
			return claimed == 1;
		});
	}

	@Override
	public Mono<Boolean> progressPending(String sessionId, PendingTurn claimed, PendingTurn progressed) {
		String hash = hash(CODEC.encode(claimed));
		String json = CODEC.encode(progressed);
		return this.jdbc.inTransaction(() -> {
			// progress renews the claim: the resumption is alive
			int updated = this.jdbc.jdbcClient()
				.sql("UPDATE " + this.sessions + " SET pending = ?, pending_hash = ?, pending_claimed_at = ? "
						+ "WHERE session_id = ? AND pending_hash = ? AND pending_claimed_at IS NOT NULL")
				.params(json, hash(json), JdbcOperations.timestamp(now()), sessionId, hash)
				.update();
			return updated == 1;
		});
	}

	@Override
	public Mono<Void> releasePending(String sessionId, PendingTurn claimed) {
		String hash = hash(CODEC.encode(claimed));
		return this.jdbc.inTransaction(() -> {
			this.jdbc.jdbcClient()
				.sql("UPDATE " + this.sessions + " SET pending_claimed_at = NULL WHERE session_id = ? AND pending_hash = ?")
				.params(sessionId, hash)
				.update();
			return null;
		});
	}

	@Override
	public Mono<Void> completePending(String sessionId, long expectedVersion, List<Message> messages) {
		List<Message> added = List.copyOf(messages);
		return this.jdbc.inTransaction(() -> {
			change(sessionId, expectedVersion, added,
					", pending = NULL, pending_hash = NULL, pending_claimed_at = NULL", List.of());
			return null;
		});
	}

	@Override
	public Mono<Void> clear(String sessionId) {
		return this.jdbc.inTransaction(() -> {
			this.rows.deleteAll(sessionId);
			this.jdbc.jdbcClient().sql("DELETE FROM " + this.sessions + " WHERE session_id = ?").param(sessionId).update();
			return null;
		});
	}

	/**
	 * Remove the sessions unused for longer than the time-to-live and, beyond the capacity
	 * in sessions, the least recently used ones, passing over sessions with a paused turn
	 * while there are others. Safe to run from several instances at once.
	 * @return how many sessions were removed
	 */
	public long purgeExpired() {
		Long removed = this.jdbc.callInTransaction(() -> {
			long count = 0;
			if (!this.sessionTtl.isZero()) {
				count += this.rows.deleteSessionsChangedBefore(JdbcOperations.timestamp(now().minus(this.sessionTtl)));
			}
			if (this.maxSessions > 0) {
				count += this.rows.deleteSessionsBeyond(this.maxSessions);
			}
			return count;
		});
		return (removed != null) ? removed : 0;
	}

	/**
	 * Move the version on (insert a new session, or update one still at the expected
	 * version), append messages at the end and trim the oldest beyond the capacity.
	 */
	private void change(String sessionId, long expectedVersion, List<Message> added, String set, List<Object> setParams) {
		change(sessionId, expectedVersion, added, set, setParams, null);
	}

	private void change(String sessionId, long expectedVersion, List<Message> added, String set,
			List<Object> setParams, @Nullable String pendingJson) {
		Instant now = now();
		long firstSeq;
		long count;
		if (expectedVersion == 0) {
			insertSession(sessionId, 0, added.size(), pendingJson, now);
			firstSeq = 0;
			count = added.size();
		}
		else {
			List<Object> params = new ArrayList<>();
			params.add(added.size());
			params.add(added.size());
			params.add(JdbcOperations.timestamp(now));
			params.addAll(setParams);
			params.add(sessionId);
			params.add(expectedVersion);
			int updated = this.jdbc.jdbcClient()
				.sql("UPDATE " + this.sessions + " SET version = version + 1, next_seq = next_seq + ?, "
						+ "message_count = message_count + ?, updated_at = ?" + set
						+ " WHERE session_id = ? AND version = ?")
				.params(params)
				.update();
			if (updated == 0) {
				throw new ConversationConflictException(sessionId, expectedVersion);
			}
			if (added.isEmpty()) {
				return;
			}
			// the row is locked by the update: nobody else moves next_seq until we commit
			long[] seqAndCount = this.jdbc.jdbcClient()
				.sql("SELECT next_seq, message_count FROM " + this.sessions + " WHERE session_id = ?")
				.param(sessionId)
				.query((rs, row) -> new long[] { rs.getLong(1), rs.getLong(2) })
				.single();
			firstSeq = seqAndCount[0] - added.size();
			count = seqAndCount[1];
		}
		this.rows.insert(sessionId, firstSeq, added, now);
		if (count > this.maxMessagesPerSession) {
			trim(sessionId, firstSeq + added.size());
		}
	}

	// drops the oldest messages beyond the capacity, then tool results left at the start
	private void trim(String sessionId, long nextSeq) {
		int deleted = this.rows.trim(sessionId, nextSeq, this.maxMessagesPerSession);
		this.jdbc.jdbcClient()
			.sql("UPDATE " + this.sessions + " SET message_count = message_count - ? WHERE session_id = ?")
			.params(deleted, sessionId)
			.update();
	}

	private void insertSession(String sessionId, long expectedVersion, int messageCount, @Nullable String pendingJson,
			Instant now) {
		OffsetDateTime timestamp = JdbcOperations.timestamp(now);
		try {
			this.jdbc.jdbcClient()
				.sql("INSERT INTO " + this.sessions + " (session_id, version, next_seq, message_count, pending, "
						+ "pending_hash, pending_claimed_at, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?, NULL, ?, ?)")
				.params(sessionId, messageCount, messageCount, pendingJson,
						(pendingJson != null) ? hash(pendingJson) : null, timestamp, timestamp)
				.update();
		}
		catch (DuplicateKeyException ex) {
			throw new ConversationConflictException(sessionId, expectedVersion);
		}
	}

	// a replacement is bounded like an append: the oldest dropped, never a leading tool result
	private List<Message> bounded(List<Message> messages) {
		if (messages.size() <= this.maxMessagesPerSession) {
			return messages;
		}
		int start = messages.size() - this.maxMessagesPerSession;
		while (start < messages.size() && messages.get(start) instanceof ToolResultMessage) {
			start++;
		}
		return List.copyOf(messages.subList(start, messages.size()));
	}

	private Instant now() {
		return JdbcOperations.truncate(this.clock.instant());
	}

	private static String hash(String json) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

	/**
	 * Builds a {@link JdbcConversationStore}.
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String tablePrefix = JdbcMemorySchema.DEFAULT_PREFIX;

		private int maxMessagesPerSession = 1_000;

		private int maxSessions;

		private Duration sessionTtl = Duration.ZERO;

		private Duration claimTimeout = Duration.ofMinutes(10);

		private Clock clock = Clock.systemUTC();

		private Builder(DataSource dataSource) {
			this.dataSource = Objects.requireNonNull(dataSource, "'dataSource' must not be null");
		}

		/**
		 * Set the prefix of the table names.
		 * @param tablePrefix letters, digits and underscores; {@code agent_} by default
		 * @return this builder
		 */
		public Builder tablePrefix(String tablePrefix) {
			this.tablePrefix = JdbcMemorySchema.validatePrefix(tablePrefix);
			return this;
		}

		/**
		 * Set the most messages kept per session, enforced by every append.
		 * @param maxMessagesPerSession at least 1; 1,000 by default
		 * @return this builder
		 */
		public Builder maxMessagesPerSession(int maxMessagesPerSession) {
			if (maxMessagesPerSession < 1) {
				throw new IllegalArgumentException(
						"'maxMessagesPerSession' must be at least 1 (was " + maxMessagesPerSession + ")");
			}
			this.maxMessagesPerSession = maxMessagesPerSession;
			return this;
		}

		/**
		 * Set the most sessions kept, enforced by {@link #purgeExpired()}.
		 * @param maxSessions at least 1, or 0 for no limit (the default)
		 * @return this builder
		 */
		public Builder maxSessions(int maxSessions) {
			if (maxSessions < 0) {
				throw new IllegalArgumentException("'maxSessions' must not be negative (was " + maxSessions + ")");
			}
			this.maxSessions = maxSessions;
			return this;
		}

		/**
		 * Set how long a session is kept after it was last changed, enforced by
		 * {@link #purgeExpired()}.
		 * @param sessionTtl the time-to-live; {@link Duration#ZERO} (the default) for none
		 * @return this builder
		 */
		public Builder sessionTtl(Duration sessionTtl) {
			if (sessionTtl.isNegative()) {
				throw new IllegalArgumentException("'sessionTtl' must not be negative (was " + sessionTtl + ")");
			}
			this.sessionTtl = sessionTtl;
			return this;
		}

		/**
		 * Set how long a claim on a paused turn holds; an older one can be claimed again.
		 * @param claimTimeout positive; 10 minutes by default
		 * @return this builder
		 */
		public Builder claimTimeout(Duration claimTimeout) {
			if (claimTimeout.isNegative() || claimTimeout.isZero()) {
				throw new IllegalArgumentException("'claimTimeout' must be positive (was " + claimTimeout + ")");
			}
			this.claimTimeout = claimTimeout;
			return this;
		}

		/**
		 * Set the clock that stamps sessions and claims; instances sharing a database
		 * should have synchronised clocks.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
			return this;
		}

		public JdbcConversationStore build() {
			return new JdbcConversationStore(this);
		}

	}

}
