-- Table of the agcore JDBC budget store (H2). ${prefix} is the table prefix, 'agent_' by default.
-- One row per bucket4j bucket: agent, limit and principal (or session) in its key, bucket4j's serialised state,
-- and when the bucket is full again (epoch milliseconds), after which the row may be deleted.
CREATE TABLE IF NOT EXISTS ${prefix}budget_bucket (
	bucket_key VARCHAR(600) NOT NULL PRIMARY KEY,
	state VARBINARY,
	expires_at BIGINT NOT NULL
);
