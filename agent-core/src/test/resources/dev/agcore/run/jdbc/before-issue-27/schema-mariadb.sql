-- Tables of the agcore JDBC run store (MariaDB 10.6+, for SKIP LOCKED). ${prefix} is the table prefix, 'agent_' by default.
-- utf8mb4_bin: ids and keys compare exactly, as on PostgreSQL and H2, not case-insensitively.
-- Background runs: the queue (status QUEUED, claimable from available_at), the lease of the worker running
-- each, and the number of its last event. input, resume and result are JSON text.
CREATE TABLE IF NOT EXISTS ${prefix}runs (
	id VARCHAR(64) NOT NULL PRIMARY KEY,
	kind VARCHAR(200) NOT NULL,
	target VARCHAR(200) NOT NULL,
	session_id VARCHAR(256) NOT NULL,
	user_id VARCHAR(256) NULL,
	input LONGTEXT NOT NULL,
	not_before DATETIME(6) NULL,
	deadline_millis BIGINT NULL,
	idempotency_key VARCHAR(200) NULL,
	status VARCHAR(16) NOT NULL,
	available_at DATETIME(6) NOT NULL,
	resume LONGTEXT NULL,
	result LONGTEXT NULL,
	error_code VARCHAR(64) NULL,
	error_message TEXT NULL,
	attempts INTEGER NOT NULL,
	cancel_requested BOOLEAN NOT NULL,
	owner VARCHAR(256) NULL,
	lease_expires_at DATETIME(6) NULL,
	last_event BIGINT NOT NULL,
	created_at DATETIME(6) NOT NULL,
	started_at DATETIME(6) NULL,
	finished_at DATETIME(6) NULL,
	INDEX ${prefix}runs_claim_idx (status, available_at),
	INDEX ${prefix}runs_lease_idx (status, lease_expires_at),
	INDEX ${prefix}runs_session_idx (session_id, created_at),
	INDEX ${prefix}runs_finished_idx (finished_at),
	UNIQUE INDEX ${prefix}runs_idempotency_idx (idempotency_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- The events of each run, numbered from 1; data is JSON text.
CREATE TABLE IF NOT EXISTS ${prefix}run_events (
	run_id VARCHAR(64) NOT NULL,
	seq BIGINT NOT NULL,
	type VARCHAR(200) NOT NULL,
	data LONGTEXT NOT NULL,
	created_at DATETIME(6) NOT NULL,
	PRIMARY KEY (run_id, seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
