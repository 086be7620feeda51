package dev.agcore.run.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcOperations;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * How runs and events are kept in rows: JSON as text through {@link AgentJson}, instants
 * as UTC timestamps to the microsecond, statuses by their enum name.
 */
final class RunRows {

	/** The columns {@link #run} reads, in order. */
	static final String RUN_COLUMNS = "id, kind, target, session_id, user_id, input, not_before, deadline_millis, "
			+ "idempotency_key, status, resume, result, error_code, error_message, attempts, cancel_requested, owner, "
			+ "lease_expires_at, created_at, started_at, finished_at";

	/** The columns {@link #event} reads, in order. */
	static final String EVENT_COLUMNS = "run_id, seq, type, data, created_at";

	private RunRows() {
	}

	static Run run(ResultSet rs, int row) throws SQLException {
		Long deadline = rs.getObject(8, Long.class);
		RunRequest request = new RunRequest(rs.getString(2), rs.getString(3), rs.getString(4), json(rs.getString(6)),
				rs.getString(5), instant(rs, 7), (deadline != null) ? Duration.ofMillis(deadline) : null,
				rs.getString(9));
		String errorCode = rs.getString(13);
		Run.RunError error = (errorCode != null) ? new Run.RunError(errorCode, rs.getString(14)) : null;
		return new Run(rs.getString(1), request, RunStatus.valueOf(rs.getString(10)), nullableJson(rs.getString(11)),
				nullableJson(rs.getString(12)), error, rs.getInt(15), rs.getBoolean(16), rs.getString(17),
				instant(rs, 18), instant(rs, 19), instant(rs, 20), instant(rs, 21));
	}

	static RunEvent event(ResultSet rs, int row) throws SQLException {
		return new RunEvent(rs.getString(1), rs.getLong(2), rs.getString(3), json(rs.getString(4)), instant(rs, 5));
	}

	static @Nullable String text(@Nullable JsonNode json) {
		return (json != null) ? AgentJson.mapper().writeValueAsString(json) : null;
	}

	private static @Nullable JsonNode nullableJson(@Nullable String text) {
		return (text != null) ? json(text) : null;
	}

	private static JsonNode json(String text) {
		try {
			return AgentJson.mapper().readTree(text);
		}
		catch (JacksonException ex) {
			throw new MemoryException("A stored run value is not valid JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	private static @Nullable Instant instant(ResultSet rs, int column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

	/** Instants are kept to the microsecond, the precision of the timestamp columns. */
	static @Nullable OffsetDateTime timestamp(@Nullable Instant instant) {
		return (instant != null) ? JdbcOperations.timestamp(instant) : null;
	}

}
