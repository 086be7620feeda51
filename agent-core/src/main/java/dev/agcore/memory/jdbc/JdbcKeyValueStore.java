package dev.agcore.memory.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.ItemQuery;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.MemoryItem;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;


/**
 * Keeps JSON values by namespace and key in a relational database (PostgreSQL, H2), in the
 * table {@code <prefix>memory_item}, shared by every instance of the application. Values
 * and metadata are stored as JSON text.
 * <p>
 * A write that adds a key to a full namespace drops the least recently written item in
 * the same transaction. Items older than the time-to-live are never returned and are
 * removed by {@link #purgeExpired()}, which the application runs on a schedule and which
 * also enforces the capacity of namespaces written concurrently from several instances.
 *
 * @since 0.1.0
 */
public final class JdbcKeyValueStore implements KeyValueStore {

	/** The longest namespace and key the tables hold. */
	public static final int MAX_NAME_LENGTH = 512;

	private final JdbcOperations jdbc;

	private final String items;

	private final int maxItemsPerNamespace;

	private final Duration ttl;

	private final Clock clock;

	private JdbcKeyValueStore(Builder builder) {
		this.jdbc = new JdbcOperations("JDBC key-value store", builder.dataSource, builder.tablePrefix);
		this.items = builder.tablePrefix + "memory_item";
		this.maxItemsPerNamespace = builder.maxItemsPerNamespace;
		this.ttl = builder.ttl;
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
	public Mono<MemoryItem> find(String namespace, String key) {
		return this.jdbc.inTransaction(() -> {
			List<MemoryItem> found = this.jdbc.jdbcClient()
				.sql("SELECT item_key, item_value, metadata, created_at, updated_at FROM " + this.items
						+ " WHERE namespace = ? AND item_key = ? AND updated_at > ?")
				.params(namespace, key, liveSince())
				.query(this::item)
				.list();
			return found.isEmpty() ? null : found.get(0);
		});
	}

	@Override
	public Mono<Void> put(String namespace, String key, JsonNode value, JsonNode metadata) {
		if (namespace.length() > MAX_NAME_LENGTH || key.length() > MAX_NAME_LENGTH) {
			return Mono.error(new IllegalArgumentException("A namespace and a key may have at most " + MAX_NAME_LENGTH
					+ " characters, the columns' size (namespace of " + namespace.length() + ", key of " + key.length()
					+ ")"));
		}
		String valueJson = AgentJson.mapper().writeValueAsString(value);
		String metadataJson = AgentJson.mapper().writeValueAsString(metadata);
		// two instances inserting the same new key: the loser updates the winner's row
		return this.jdbc.inTransactionRetrying(() -> tryPut(namespace, key, valueJson, metadataJson)).then();
	}

	@Override
	public Mono<Boolean> putIfAbsent(String namespace, String key, JsonNode value, JsonNode metadata) {
		if (namespace.length() > MAX_NAME_LENGTH || key.length() > MAX_NAME_LENGTH) {
			return Mono.error(new IllegalArgumentException("A namespace and a key may have at most " + MAX_NAME_LENGTH
					+ " characters, the columns' size (namespace of " + namespace.length() + ", key of " + key.length()
					+ ")"));
		}
		String valueJson = AgentJson.mapper().writeValueAsString(value);
		String metadataJson = AgentJson.mapper().writeValueAsString(metadata);
		// the loser of two inserts fails on the primary key and, retried, finds the winner's row
		return this.jdbc.inTransactionRetrying(() -> tryPutIfAbsent(namespace, key, valueJson, metadataJson));
	}

	private Boolean tryPutIfAbsent(String namespace, String key, String valueJson, String metadataJson) {
		OffsetDateTime now = JdbcOperations.timestamp(now());
		// an expired row not yet purged is taken over; of two updates, the row lock lets one
		// through and the other sees the row live again
		int replaced = this.jdbc.jdbcClient()
			.sql("UPDATE " + this.items + " SET item_value = ?, metadata = ?, created_at = ?, updated_at = ? "
					+ "WHERE namespace = ? AND item_key = ? AND updated_at <= ?")
			.params(valueJson, metadataJson, now, now, namespace, key, liveSince())
			.update();
		if (replaced > 0) {
			return true;
		}
		long existing = this.jdbc.jdbcClient()
			.sql("SELECT COUNT(*) FROM " + this.items + " WHERE namespace = ? AND item_key = ?")
			.params(namespace, key)
			.query(Long.class)
			.single();
		if (existing > 0) {
			return false;
		}
		this.jdbc.jdbcClient()
			.sql("INSERT INTO " + this.items + " (namespace, item_key, item_value, metadata, created_at, updated_at) "
					+ "VALUES (?, ?, ?, ?, ?, ?)")
			.params(namespace, key, valueJson, metadataJson, now, now)
			.update();
		enforceCapacity(namespace);
		return true;
	}

	private Boolean tryPut(String namespace, String key, String valueJson, String metadataJson) {
		OffsetDateTime now = JdbcOperations.timestamp(now());
		// an expired item not yet purged is written as a new one
		int updated = this.jdbc.jdbcClient()
			.sql("UPDATE " + this.items + " SET item_value = ?, metadata = ?, updated_at = ?, "
					+ "created_at = CASE WHEN updated_at > ? THEN created_at ELSE ? END "
					+ "WHERE namespace = ? AND item_key = ?")
			.params(valueJson, metadataJson, now, liveSince(), now, namespace, key)
			.update();
		if (updated > 0) {
			return true;
		}
		// a concurrent insert of the same key fails this one with a DuplicateKeyException
		this.jdbc.jdbcClient()
			.sql("INSERT INTO " + this.items + " (namespace, item_key, item_value, metadata, created_at, updated_at) "
					+ "VALUES (?, ?, ?, ?, ?, ?)")
			.params(namespace, key, valueJson, metadataJson, now, now)
			.update();
		enforceCapacity(namespace);
		return true;
	}

	private long enforceCapacity(String namespace) {
		long count = this.jdbc.jdbcClient()
			.sql("SELECT COUNT(*) FROM " + this.items + " WHERE namespace = ?")
			.param(namespace)
			.query(Long.class)
			.single();
		if (count <= this.maxItemsPerNamespace) {
			return 0;
		}
		List<String> eldest = this.jdbc.jdbcClient()
			.sql("SELECT item_key FROM " + this.items + " WHERE namespace = ? ORDER BY updated_at, item_key LIMIT ?")
			.params(namespace, count - this.maxItemsPerNamespace)
			.query(String.class)
			.list();
		long removed = 0;
		for (String key : eldest) {
			removed += this.jdbc.jdbcClient()
				.sql("DELETE FROM " + this.items + " WHERE namespace = ? AND item_key = ?")
				.params(namespace, key)
				.update();
		}
		return removed;
	}

	@Override
	public Mono<Boolean> delete(String namespace, String key) {
		return this.jdbc.inTransaction(() -> this.jdbc.jdbcClient()
			.sql("DELETE FROM " + this.items + " WHERE namespace = ? AND item_key = ?")
			.params(namespace, key)
			.update() > 0);
	}

	@Override
	public Mono<List<MemoryItem>> list(String namespace, ItemQuery query) {
		return this.jdbc.inTransaction(() -> {
			StringBuilder sql = new StringBuilder("SELECT item_key, item_value, metadata, created_at, updated_at FROM ")
				.append(this.items)
				.append(" WHERE namespace = ? AND updated_at > ?");
			List<Object> params = new ArrayList<>(List.of(namespace, liveSince()));
			if (!query.keyPrefix().isEmpty()) {
				sql.append(" AND item_key LIKE ? ESCAPE '!'");
				params.add(escapeLike(query.keyPrefix()) + "%");
			}
			if (query.since() != null) {
				sql.append(" AND created_at > ?");
				params.add(JdbcOperations.timestamp(query.since()));
			}
			sql.append(" ORDER BY created_at, item_key LIMIT ? OFFSET ?");
			params.add(query.limit());
			params.add(query.offset());
			return this.jdbc.jdbcClient().sql(sql.toString()).params(params).query(this::item).list();
		});
	}

	@Override
	public Mono<Long> clear(String namespace) {
		return this.jdbc.inTransaction(() -> (long) this.jdbc.jdbcClient()
			.sql("DELETE FROM " + this.items + " WHERE namespace = ?")
			.param(namespace)
			.update());
	}

	/**
	 * Remove the items older than the time-to-live and, in namespaces beyond their
	 * capacity, the least recently written. Safe to run from several instances at once.
	 * @return how many items were removed
	 */
	public long purgeExpired() {
		Long removed = this.jdbc.callInTransaction(() -> {
			long count = 0;
			if (!this.ttl.isZero()) {
				count += this.jdbc.jdbcClient()
					.sql("DELETE FROM " + this.items + " WHERE updated_at <= ?")
					.param(liveSince())
					.update();
			}
			List<String> full = this.jdbc.jdbcClient()
				.sql("SELECT namespace FROM " + this.items + " GROUP BY namespace HAVING COUNT(*) > ?")
				.param(this.maxItemsPerNamespace)
				.query(String.class)
				.list();
			for (String namespace : full) {
				count += enforceCapacity(namespace);
			}
			return count;
		});
		return (removed != null) ? removed : 0;
	}

	private MemoryItem item(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
		return new MemoryItem(rs.getString(1), json(rs.getString(2)), json(rs.getString(3)),
				rs.getObject(4, OffsetDateTime.class).toInstant(), rs.getObject(5, OffsetDateTime.class).toInstant());
	}

	private static JsonNode json(String text) {
		try {
			return AgentJson.mapper().readTree(text);
		}
		catch (JacksonException ex) {
			throw new MemoryException("A stored memory value is not valid JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	// items written at or before this instant have expired
	private OffsetDateTime liveSince() {
		return JdbcOperations.timestamp(this.ttl.isZero() ? Instant.EPOCH : now().minus(this.ttl));
	}

	private Instant now() {
		return JdbcOperations.truncate(this.clock.instant());
	}

	private static String escapeLike(String prefix) {
		return prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_");
	}

	/**
	 * Builds a {@link JdbcKeyValueStore}.
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String tablePrefix = JdbcMemorySchema.DEFAULT_PREFIX;

		private int maxItemsPerNamespace = 10_000;

		private Duration ttl = Duration.ZERO;

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
		 * Set the most items kept per namespace.
		 * @param maxItemsPerNamespace at least 1; 10,000 by default
		 * @return this builder
		 */
		public Builder maxItemsPerNamespace(int maxItemsPerNamespace) {
			if (maxItemsPerNamespace < 1) {
				throw new IllegalArgumentException(
						"'maxItemsPerNamespace' must be at least 1 (was " + maxItemsPerNamespace + ")");
			}
			this.maxItemsPerNamespace = maxItemsPerNamespace;
			return this;
		}

		/**
		 * Set how long an item is kept after it was last written.
		 * @param ttl the time-to-live; {@link Duration#ZERO} (the default) for none
		 * @return this builder
		 */
		public Builder ttl(Duration ttl) {
			if (ttl.isNegative()) {
				throw new IllegalArgumentException("'ttl' must not be negative (was " + ttl + ")");
			}
			this.ttl = ttl;
			return this;
		}

		/**
		 * Set the clock that stamps items.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
			return this;
		}

		public JdbcKeyValueStore build() {
			return new JdbcKeyValueStore(this);
		}

	}

}
