-- Tables of the agcore JDBC stores (MariaDB 10.5+). ${prefix} is the table prefix, 'agent_' by default.
-- utf8mb4_bin: session ids, namespaces and keys compare exactly, as on PostgreSQL and H2, not case-insensitively.
-- Conversations: one row per session, with the version every change increases and the paused turn.
CREATE TABLE IF NOT EXISTS ${prefix}session (
	session_id VARCHAR(256) NOT NULL PRIMARY KEY,
	version BIGINT NOT NULL,
	next_seq BIGINT NOT NULL,
	message_count BIGINT NOT NULL,
	pending LONGTEXT NULL,
	pending_hash VARCHAR(64) NULL,
	pending_claimed_at DATETIME(6) NULL,
	created_at DATETIME(6) NOT NULL,
	updated_at DATETIME(6) NOT NULL,
	INDEX ${prefix}session_updated_idx (updated_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- The messages of each session, in order; payload is the JSON of dev.agcore.memory.codec.MemoryCodec.
CREATE TABLE IF NOT EXISTS ${prefix}message (
	session_id VARCHAR(256) NOT NULL,
	seq BIGINT NOT NULL,
	kind VARCHAR(16) NOT NULL,
	payload LONGTEXT NOT NULL,
	created_at DATETIME(6) NOT NULL,
	PRIMARY KEY (session_id, seq),
	FOREIGN KEY (session_id) REFERENCES ${prefix}session (session_id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- Session memory and long-term memory: JSON values by namespace and key. InnoDB keys are at most
-- 3072 bytes, so namespace and key have 384 characters each here (512 on PostgreSQL and H2).
CREATE TABLE IF NOT EXISTS ${prefix}memory_item (
	namespace VARCHAR(384) NOT NULL,
	item_key VARCHAR(384) NOT NULL,
	item_value LONGTEXT NOT NULL,
	metadata LONGTEXT NOT NULL,
	created_at DATETIME(6) NOT NULL,
	updated_at DATETIME(6) NOT NULL,
	PRIMARY KEY (namespace, item_key),
	INDEX ${prefix}memory_item_created_idx (namespace, created_at),
	INDEX ${prefix}memory_item_updated_idx (updated_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
