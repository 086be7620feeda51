package dev.agcore.autoconfigure.memory;

import java.time.Duration;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the stores behind conversations, paused turns, session
 * memory and long-term memory.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.memory", ignoreUnknownFields = false)
public class MemoryProperties {

	/**
	 * Where conversations, paused turns and memory are kept: 'in-memory' (lost on restart),
	 * 'jdbc' (the application's DataSource: PostgreSQL, H2 or another standard-SQL
	 * database) or 'redis' (the application's Redis connection).
	 */
	private StoreType store = StoreType.IN_MEMORY;

	/**
	 * How long a session is kept after its last turn; its conversation, paused turn and
	 * session memory are then removed. Zero keeps sessions until deleted or evicted by
	 * capacity.
	 */
	private Duration sessionTtl = Duration.ofDays(30);

	/**
	 * Maximum number of sessions kept. Beyond it the least recently used session is
	 * evicted, passing over sessions waiting for approval. Defaults to 10,000 for the
	 * in-memory store and to no limit for the JDBC and Redis stores.
	 */
	private @Nullable Integer maxSessions;

	/**
	 * Maximum number of messages kept per session. The oldest are dropped beyond it,
	 * never a tool call without its results.
	 */
	private int maxMessagesPerSession = InMemoryConversationStore.DEFAULT_MAX_MESSAGES_PER_SESSION;

	/**
	 * How long a resumption holds a paused turn. A claim older than this (an instance
	 * that crashed while resuming) expires, so the turn can be resumed again. Used by the
	 * JDBC and Redis stores.
	 */
	private Duration claimTimeout = Duration.ofMinutes(10);

	private final LongTerm longTerm = new LongTerm();

	private final InMemory inMemory = new InMemory();

	private final Jdbc jdbc = new Jdbc();

	private final Redis redis = new Redis();

	public StoreType getStore() {
		return this.store;
	}

	public void setStore(StoreType store) {
		this.store = store;
	}

	public Duration getSessionTtl() {
		return this.sessionTtl;
	}

	public void setSessionTtl(Duration sessionTtl) {
		this.sessionTtl = sessionTtl;
	}

	public @Nullable Integer getMaxSessions() {
		return this.maxSessions;
	}

	public void setMaxSessions(@Nullable Integer maxSessions) {
		this.maxSessions = maxSessions;
	}

	public int getMaxMessagesPerSession() {
		return this.maxMessagesPerSession;
	}

	public void setMaxMessagesPerSession(int maxMessagesPerSession) {
		this.maxMessagesPerSession = maxMessagesPerSession;
	}

	public Duration getClaimTimeout() {
		return this.claimTimeout;
	}

	public void setClaimTimeout(Duration claimTimeout) {
		this.claimTimeout = claimTimeout;
	}

	public LongTerm getLongTerm() {
		return this.longTerm;
	}

	public InMemory getInMemory() {
		return this.inMemory;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Redis getRedis() {
		return this.redis;
	}

	/** Where memory is kept. */
	public enum StoreType {

		/** In this JVM; lost on restart. */
		IN_MEMORY,

		/** In a relational database, through the application's DataSource. */
		JDBC,

		/** In Redis, through the application's Redis connection. */
		REDIS

	}

	/**
	 * When the JDBC stores create their tables, as Spring Boot's
	 * {@code spring.sql.init.mode} does for its own scripts.
	 */
	public enum SchemaInitialization {

		/** Always create what is missing. */
		ALWAYS,

		/** Only for an embedded database (H2, HSQLDB, Derby). */
		EMBEDDED,

		/** Never: the tables are created by the application's migrations. */
		NEVER

	}

	/**
	 * Long-term memory and session memory: values kept by namespace and key.
	 */
	public static class LongTerm {

		/**
		 * How long a value is kept after it was last written. Zero keeps values until
		 * deleted or evicted by capacity.
		 */
		private Duration ttl = Duration.ZERO;

		/**
		 * Maximum number of values kept per namespace (a user's long-term memory, a
		 * session's memory); beyond it the least recently written is dropped.
		 */
		private int maxItemsPerNamespace = InMemoryKeyValueStore.DEFAULT_MAX_ITEMS_PER_NAMESPACE;

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public int getMaxItemsPerNamespace() {
			return this.maxItemsPerNamespace;
		}

		public void setMaxItemsPerNamespace(int maxItemsPerNamespace) {
			this.maxItemsPerNamespace = maxItemsPerNamespace;
		}

	}

	/**
	 * The in-memory stores.
	 */
	public static class InMemory {

		/**
		 * Maximum size of what the in-memory conversation and key-value stores hold
		 * together, estimated at two bytes a character plus a fixed overhead per message
		 * and item. Beyond it whole sessions are evicted, least recently used first, with
		 * their session memory, entries in users' session lists and owner record. Defaults
		 * to a tenth of the maximum heap.
		 */
		private @Nullable DataSize maxBytes;

		public @Nullable DataSize getMaxBytes() {
			return this.maxBytes;
		}

		public void setMaxBytes(@Nullable DataSize maxBytes) {
			this.maxBytes = maxBytes;
		}

	}

	/**
	 * The JDBC stores.
	 */
	public static class Jdbc {

		/**
		 * When to create the stores' tables at startup: 'embedded' (only for an embedded
		 * database such as H2), 'always' or 'never'. The scripts create only what is
		 * missing.
		 */
		private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

		/**
		 * Prefix of the stores' table names.
		 */
		private String tablePrefix = "agent_";

		/**
		 * Database platform whose schema script is used: 'postgresql', 'h2' or 'mariadb'.
		 * Detected from the DataSource when not set.
		 */
		private @Nullable String platform;

		/**
		 * How often expired sessions, values and claims are purged, and capacities enforced.
		 */
		private Duration purgeInterval = Duration.ofMinutes(1);

		public SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public String getTablePrefix() {
			return this.tablePrefix;
		}

		public void setTablePrefix(String tablePrefix) {
			this.tablePrefix = tablePrefix;
		}

		public @Nullable String getPlatform() {
			return this.platform;
		}

		public void setPlatform(@Nullable String platform) {
			this.platform = platform;
		}

		public Duration getPurgeInterval() {
			return this.purgeInterval;
		}

		public void setPurgeInterval(Duration purgeInterval) {
			this.purgeInterval = purgeInterval;
		}

	}

	/**
	 * The Redis stores.
	 */
	public static class Redis {

		/**
		 * Prefix of every key the stores write.
		 */
		private String keyPrefix = "agent:";

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

	}

}
