-- Tables of the agcore JDBC stores (PostgreSQL). ${prefix} is the table prefix, 'agent_' by default.
-- Conversations: one row per session, with the version every change increases and the paused turn.
CREATE TABLE IF NOT EXISTS ${prefix}session (
	session_id VARCHAR(256) NOT NULL PRIMARY KEY,
	version BIGINT NOT NULL,
	next_seq BIGINT NOT NULL,
	message_count BIGINT NOT NULL,
	pending TEXT NULL,
	pending_hash VARCHAR(64) NULL,
	pending_claimed_at TIMESTAMP WITH TIME ZONE NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS ${prefix}session_updated_idx ON ${prefix}session (updated_at);
-- The messages of each session, in order; payload is the JSON of dev.agcore.memory.codec.MemoryCodec.
CREATE TABLE IF NOT EXISTS ${prefix}message (
	session_id VARCHAR(256) NOT NULL REFERENCES ${prefix}session (session_id) ON DELETE CASCADE,
	seq BIGINT NOT NULL,
	kind VARCHAR(16) NOT NULL,
	payload TEXT NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (session_id, seq)
);
-- Session memory and long-term memory: JSON values by namespace and key.
CREATE TABLE IF NOT EXISTS ${prefix}memory_item (
	namespace VARCHAR(512) NOT NULL,
	item_key VARCHAR(512) NOT NULL,
	item_value TEXT NOT NULL,
	metadata TEXT NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (namespace, item_key)
);
CREATE INDEX IF NOT EXISTS ${prefix}memory_item_created_idx ON ${prefix}memory_item (namespace, created_at, item_key);
CREATE INDEX IF NOT EXISTS ${prefix}memory_item_updated_idx ON ${prefix}memory_item (updated_at);
