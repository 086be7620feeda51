-- Table of the agcore JDBC audit sink (MariaDB 10.5+). ${prefix} is the table prefix, 'agent_' by default.
-- One row per audit event: tool calls, approval decisions, permission denials, access and budget refusals, redacted.
-- event_id makes a retried write harmless; chain_seq, prev_hash and row_hash are set when agent.audit.chain=true.
CREATE TABLE IF NOT EXISTS ${prefix}audit_event (
	id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
	event_time DATETIME(6) NOT NULL,
	kind VARCHAR(32) NOT NULL,
	agent VARCHAR(256) NOT NULL,
	session_id VARCHAR(256) NOT NULL,
	user_id VARCHAR(256),
	tool VARCHAR(256),
	tool_call_id VARCHAR(256),
	arguments LONGTEXT NOT NULL,
	outcome VARCHAR(64) NOT NULL,
	detail LONGTEXT NOT NULL,
	event_id VARCHAR(36) NOT NULL,
	chain_seq BIGINT,
	prev_hash VARCHAR(64),
	row_hash VARCHAR(64),
	UNIQUE KEY ${prefix}audit_event_id_uk (event_id),
	UNIQUE KEY ${prefix}audit_event_seq_uk (chain_seq),
	INDEX ${prefix}audit_event_time_idx (event_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- The head of the hash chain: the last row's sequence and hash, locked by each append so that
-- instances sharing the table extend one chain in turn.
CREATE TABLE IF NOT EXISTS ${prefix}audit_chain (
	id INT NOT NULL PRIMARY KEY,
	chain_seq BIGINT NOT NULL,
	row_hash VARCHAR(64) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT IGNORE INTO ${prefix}audit_chain (id, chain_seq, row_hash) VALUES (1, 0, '');
