package dev.agcore.run.jdbc;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore.ClaimSettings;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One claim, in the caller's transaction: lock the claimable runs no other claimer holds
 * ({@code FOR UPDATE SKIP LOCKED}), cancel those whose lease expired after cancelling was
 * asked for, fail those whose lease expired too often, and take the others as long as
 * their session has room.
 */
final class RunClaim {

	private final JdbcRunStore store;

	private final String owner;

	private final ClaimSettings settings;

	private final boolean postgres;

	private final OffsetDateTime now;

	RunClaim(JdbcRunStore store, String owner, ClaimSettings settings, boolean postgres) {
		this.store = store;
		this.owner = owner;
		this.settings = settings;
		this.postgres = postgres;
		this.now = store.now();
	}

	List<Run> claim() {
		// more than max, so that runs of full sessions do not crowd out the rest
		int window = Math.min(1000, this.settings.max() * 4 + 8);
		List<Candidate> candidates = this.store.jdbc()
			.jdbcClient()
			.sql("SELECT id, session_id, status, attempts, cancel_requested FROM " + this.store.runsTable()
					+ " WHERE (status = ? AND available_at <= ?) OR (status = ? AND lease_expires_at <= ?) "
					+ "ORDER BY created_at, id LIMIT ? FOR UPDATE SKIP LOCKED")
			.params(RunStatus.QUEUED.name(), this.now, RunStatus.RUNNING.name(), this.now, window)
			.query((rs, row) -> new Candidate(rs.getString(1), rs.getString(2), RunStatus.valueOf(rs.getString(3)),
					rs.getInt(4), rs.getBoolean(5)))
			.list();
		Map<String, Integer> running = new HashMap<>();
		List<String> claimed = new ArrayList<>();
		for (Candidate candidate : candidates) {
			if (candidate.status() == RunStatus.RUNNING && candidate.cancelRequested()) {
				// its worker died before it could stop: nothing is left to run
				cancel(candidate);
				continue;
			}
			if (candidate.status() == RunStatus.RUNNING && candidate.attempts() >= this.settings.maxAttempts()) {
				failLeaseExpired(candidate);
				continue;
			}
			if (claimed.size() >= this.settings.max()) {
				continue;
			}
			Integer inSession = running.computeIfAbsent(candidate.sessionId(), this::runningOrFull);
			if (inSession >= this.settings.maxPerSession()) {
				continue;
			}
			take(candidate);
			running.put(candidate.sessionId(), inSession + 1);
			claimed.add(candidate.id());
		}
		return this.store.findAll(claimed);
	}

	/**
	 * How many runs of a session run under a live lease; on PostgreSQL only once this
	 * transaction holds the session's advisory lock, so that two claimers never count the
	 * same session at once (the loser leaves its runs for a later claim).
	 */
	private int runningOrFull(String sessionId) {
		if (this.postgres) {
			Boolean locked = this.store.jdbc()
				.jdbcClient()
				.sql("SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0))")
				.param(this.store.runsTable() + ":" + sessionId)
				.query(Boolean.class)
				.single();
			if (!Boolean.TRUE.equals(locked)) {
				return Integer.MAX_VALUE;
			}
		}
		return this.store.jdbc()
			.jdbcClient()
			.sql("SELECT COUNT(*) FROM " + this.store.runsTable()
					+ " WHERE session_id = ? AND status = ? AND lease_expires_at > ?")
			.params(sessionId, RunStatus.RUNNING.name(), this.now)
			.query(Integer.class)
			.single();
	}

	private void take(Candidate candidate) {
		this.store.jdbc()
			.jdbcClient()
			.sql("UPDATE " + this.store.runsTable() + " SET status = ?, owner = ?, lease_expires_at = ?, "
					+ "attempts = attempts + 1, started_at = COALESCE(started_at, ?) WHERE id = ?")
			.params(RunStatus.RUNNING.name(), this.owner, this.now.plus(this.settings.lease()), this.now,
					candidate.id())
			.update();
	}

	private void cancel(Candidate candidate) {
		this.store.jdbc()
			.jdbcClient()
			.sql("UPDATE " + this.store.runsTable() + " SET status = ?, owner = NULL, lease_expires_at = NULL, "
					+ "finished_at = ? WHERE id = ?")
			.params(RunStatus.CANCELLED.name(), this.now, candidate.id())
			.update();
		this.store.appendInTransaction(candidate.id(), RunEvent.CANCELLED, JsonNodeFactory.instance.objectNode());
	}

	private void failLeaseExpired(Candidate candidate) {
		Run.RunError error = Run.RunError.leaseExpired();
		this.store.jdbc()
			.jdbcClient()
			.sql("UPDATE " + this.store.runsTable() + " SET status = ?, error_code = ?, error_message = ?, owner = NULL, "
					+ "lease_expires_at = NULL, finished_at = ? WHERE id = ?")
			.params(RunStatus.FAILED.name(), error.code(), error.message(), this.now, candidate.id())
			.update();
		ObjectNode data = JsonNodeFactory.instance.objectNode()
			.put("error", error.code())
			.put("message", error.message());
		this.store.appendInTransaction(candidate.id(), RunEvent.FAILED, data);
	}

	private record Candidate(String id, String sessionId, RunStatus status, int attempts, boolean cancelRequested) {

	}

}
