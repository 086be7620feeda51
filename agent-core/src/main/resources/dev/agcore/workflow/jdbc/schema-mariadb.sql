-- Tables of the agcore JDBC checkpoint store (MariaDB 10.5+). ${prefix} is the table prefix, 'agent_' by default.
-- One row per workflow run: the checkpoint's format, the version every write increases, the interrupts reached.
CREATE TABLE IF NOT EXISTS ${prefix}workflow_checkpoint (
	run_id VARCHAR(256) NOT NULL PRIMARY KEY,
	format_version INT NOT NULL,
	version BIGINT NOT NULL,
	interrupts INT NOT NULL,
	updated_at DATETIME(6) NOT NULL,
	INDEX ${prefix}workflow_checkpoint_updated_idx (updated_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- Its entries: 'task:<callId>' (a task's result) and 'resume:<index>' (an interrupt's answer), as JSON.
CREATE TABLE IF NOT EXISTS ${prefix}workflow_checkpoint_entry (
	run_id VARCHAR(256) NOT NULL,
	entry_key VARCHAR(512) NOT NULL,
	entry_value LONGTEXT NOT NULL,
	PRIMARY KEY (run_id, entry_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
