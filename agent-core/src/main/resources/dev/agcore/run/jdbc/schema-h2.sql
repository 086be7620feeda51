-- Tables of the agcore JDBC run store (H2). ${prefix} is the table prefix, 'agent_' by default.
-- Background runs: the queue (status QUEUED, claimable from available_at), the lease of the worker running
-- each, and the number of its last event. input, resume and result are JSON text.
CREATE TABLE IF NOT EXISTS ${prefix}runs (
	id VARCHAR(64) NOT NULL PRIMARY KEY,
	kind VARCHAR(200) NOT NULL,
	target VARCHAR(200) NOT NULL,
	session_id VARCHAR(256) NOT NULL,
	user_id VARCHAR(256) NULL,
	input CHARACTER LARGE OBJECT NOT NULL,
	not_before TIMESTAMP WITH TIME ZONE NULL,
	deadline_millis BIGINT NULL,
	idempotency_key VARCHAR(200) NULL,
	idempotency_digest VARCHAR(64) NULL,
	request_fingerprint VARCHAR(64) NULL,
	status VARCHAR(16) NOT NULL,
	available_at TIMESTAMP WITH TIME ZONE NOT NULL,
	resume CHARACTER LARGE OBJECT NULL,
	result CHARACTER LARGE OBJECT NULL,
	error_code VARCHAR(64) NULL,
	error_message CHARACTER LARGE OBJECT NULL,
	attempts INTEGER NOT NULL,
	cancel_requested BOOLEAN NOT NULL,
	owner VARCHAR(256) NULL,
	lease_expires_at TIMESTAMP WITH TIME ZONE NULL,
	last_event BIGINT NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	started_at TIMESTAMP WITH TIME ZONE NULL,
	finished_at TIMESTAMP WITH TIME ZONE NULL
);
-- claiming queued runs whose time has come, and runs whose lease expired
CREATE INDEX IF NOT EXISTS ${prefix}runs_claim_idx ON ${prefix}runs (status, available_at);
CREATE INDEX IF NOT EXISTS ${prefix}runs_lease_idx ON ${prefix}runs (status, lease_expires_at);
-- listing a session's runs, newest first; counting its running ones
CREATE INDEX IF NOT EXISTS ${prefix}runs_session_idx ON ${prefix}runs (session_id, created_at);
-- purging finished runs
CREATE INDEX IF NOT EXISTS ${prefix}runs_finished_idx ON ${prefix}runs (finished_at);
-- Tables created before idempotency keys were scoped (issue 27) get the scoped key and the request's
-- fingerprint; their old runs keep their raw key, readable but no longer matched.
ALTER TABLE ${prefix}runs ADD COLUMN IF NOT EXISTS idempotency_digest VARCHAR(64) NULL;
ALTER TABLE ${prefix}runs ADD COLUMN IF NOT EXISTS request_fingerprint VARCHAR(64) NULL;
-- a raw key is no longer unique: two users may pick the same one
DROP INDEX IF EXISTS ${prefix}runs_idempotency_idx;
-- a second submit with the same scoped key (principal or session, kind, target, key) answers the first run
-- (NULLs do not collide)
CREATE UNIQUE INDEX IF NOT EXISTS ${prefix}runs_idempotency_digest_idx ON ${prefix}runs (idempotency_digest);
-- The events of each run, numbered from 1; data is JSON text.
CREATE TABLE IF NOT EXISTS ${prefix}run_events (
	run_id VARCHAR(64) NOT NULL,
	seq BIGINT NOT NULL,
	type VARCHAR(200) NOT NULL,
	data CHARACTER LARGE OBJECT NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (run_id, seq)
);
