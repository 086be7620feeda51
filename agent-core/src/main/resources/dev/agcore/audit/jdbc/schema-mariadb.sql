-- Table of the agcore JDBC audit sink (MariaDB 10.5+). ${prefix} is the table prefix, 'agent_' by default.
-- One row per audit event: tool calls, approval decisions, permission denials and budget refusals, redacted.
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
	INDEX ${prefix}audit_event_time_idx (event_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
