-- Tables of the agcore JDBC checkpoint store (H2). ${prefix} is the table prefix, 'agent_' by default.
-- One row per workflow run: the checkpoint's format, the version every write increases, the interrupts reached.
CREATE TABLE IF NOT EXISTS ${prefix}workflow_checkpoint (
	run_id VARCHAR(256) NOT NULL PRIMARY KEY,
	format_version INT NOT NULL,
	version BIGINT NOT NULL,
	interrupts INT NOT NULL,
	updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS ${prefix}workflow_checkpoint_updated_idx ON ${prefix}workflow_checkpoint (updated_at);
-- Its entries: 'task:<callId>' (a task's result) and 'resume:<index>' (an interrupt's answer), as JSON.
CREATE TABLE IF NOT EXISTS ${prefix}workflow_checkpoint_entry (
	run_id VARCHAR(256) NOT NULL,
	entry_key VARCHAR(512) NOT NULL,
	entry_value TEXT NOT NULL,
	PRIMARY KEY (run_id, entry_key)
);
