package dev.agcore.workflow.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import javax.sql.DataSource;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.jdbc.JdbcOperations;
import dev.agcore.memory.jdbc.JdbcSchema;
import dev.agcore.workflow.Checkpoint;
import dev.agcore.workflow.CheckpointFormatException;
import dev.agcore.workflow.CheckpointStore;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Keeps workflow checkpoints in a relational database (PostgreSQL, H2, MariaDB), in the
 * tables {@code <prefix>workflow_checkpoint} (one row per run, locked by every write so
 * writes of a run are serialised) and {@code <prefix>workflow_checkpoint_entry} (task
 * results and interrupt answers as JSON), shared by every instance of the application.
 * A checkpoint not written for longer than the time-to-live is never returned, is started
 * afresh by the next write, and is removed by {@link #purgeExpired()}.
 *
 * @since 0.1.0
 */
public final class JdbcCheckpointStore implements CheckpointStore {

	private static final String TASK = "task:";

	private static final String RESUME = "resume:";

	/**
	 * The tables, {@code <prefix>workflow_checkpoint} and
	 * {@code <prefix>workflow_checkpoint_entry}, and their scripts
	 * ({@code dev/agcore/workflow/jdbc/schema-<platform>.sql}), beside the memory tables and
	 * with the same prefix.
	 */
	public static final JdbcSchema SCHEMA = new JdbcSchema("checkpoint", "JDBC checkpoint store",
			"dev/agcore/workflow/jdbc", List.of("workflow_checkpoint", "workflow_checkpoint_entry"));

	private static final JdbcOperations.Store STORE = SCHEMA.store("JDBC checkpoint store")
		.untranslated(CheckpointFormatException.class, IllegalArgumentException.class);

	private final String checkpoints;

	private final String entries;

	private final JdbcOperations operations;

	private final JdbcClient jdbc;

	private final Duration ttl;

	private final Clock clock;

	/**
	 * Create a store on a database whose tables exist (see {@link #SCHEMA}).
	 * @param dataSource the database
	 * @param tablePrefix the prefix of the tables
	 * @param ttl how long a checkpoint is kept after its last write; {@link Duration#ZERO}
	 * for no limit
	 * @param clock the clock
	 */
	public JdbcCheckpointStore(DataSource dataSource, String tablePrefix, Duration ttl, Clock clock) {
		JdbcSchema.validatePrefix(tablePrefix);
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("'ttl' must not be negative (was " + ttl + ")");
		}
		this.checkpoints = tablePrefix + "workflow_checkpoint";
		this.entries = tablePrefix + "workflow_checkpoint_entry";
		this.operations = new JdbcOperations(STORE, dataSource, tablePrefix);
		this.jdbc = this.operations.jdbcClient();
		this.ttl = ttl;
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
	}

	@Override
	public Mono<Checkpoint> load(String runId) {
		return this.operations.inTransactionRetrying(() -> {
			List<Header> found = this.jdbc
				.sql("SELECT format_version, version, interrupts, updated_at FROM " + this.checkpoints
						+ " WHERE run_id = ?")
				.param(runId)
				.query((rs, row) -> new Header(rs.getInt(1), rs.getLong(2), rs.getInt(3),
						rs.getObject(4, OffsetDateTime.class).toInstant()))
				.list();
			if (found.isEmpty() || expired(found.get(0))) {
				return null;
			}
			Header header = found.get(0);
			if (header.format > Checkpoint.FORMAT_VERSION) {
				throw new CheckpointFormatException(runId, header.format);
			}
			Map<String, JsonNode> tasks = new LinkedHashMap<>();
			TreeMap<Integer, JsonNode> answers = new TreeMap<>();
			this.jdbc.sql("SELECT entry_key, entry_value FROM " + this.entries + " WHERE run_id = ?")
				.param(runId)
				.query((rs) -> {
					String key = rs.getString(1);
					JsonNode value = AgentJson.mapper().readTree(rs.getString(2));
					if (key.startsWith(TASK)) {
						tasks.put(key.substring(TASK.length()), value);
					}
					else if (key.startsWith(RESUME)) {
						answers.put(Integer.parseInt(key.substring(RESUME.length())), value);
					}
				});
			return new Checkpoint(runId, header.format, header.version, tasks, List.copyOf(answers.values()),
					header.interrupts);
		});
	}

	@Override
	public Mono<Boolean> saveTask(String runId, String callId, JsonNode result) {
		String json = AgentJson.mapper().writeValueAsString(result);
		return this.operations.inTransactionRetrying(() -> {
			lock(runId);
			if (hasEntry(runId, TASK + callId)) {
				return false;
			}
			insertEntry(runId, TASK + callId, json);
			return touch(runId, null);
		});
	}

	@Override
	public Mono<Boolean> saveResume(String runId, int index, JsonNode value) {
		String json = AgentJson.mapper().writeValueAsString(value);
		return this.operations.inTransactionRetrying(() -> {
			lock(runId);
			long kept = this.jdbc
				.sql("SELECT COUNT(*) FROM " + this.entries + " WHERE run_id = ? AND entry_key LIKE '" + RESUME + "%'")
				.param(runId)
				.query(Long.class)
				.single();
			if (index < kept) {
				return false;
			}
			if (index > kept) {
				throw new IllegalArgumentException("Cannot keep the answer to interrupt " + index + " of run '" + runId
						+ "': only " + kept + " earlier answers are kept; answers are kept in order");
			}
			insertEntry(runId, RESUME + index, json);
			return touch(runId, null);
		});
	}

	@Override
	public Mono<Void> saveInterrupt(String runId, int index) {
		return this.operations.inTransactionRetrying(() -> {
			Header header = lock(runId);
			return (header.interrupts > index) ? false : touch(runId, index + 1);
		}).then();
	}

	@Override
	public Mono<Boolean> delete(String runId) {
		return this.operations.inTransactionRetrying(() -> {
			this.jdbc.sql("DELETE FROM " + this.entries + " WHERE run_id = ?").param(runId).update();
			return this.jdbc.sql("DELETE FROM " + this.checkpoints + " WHERE run_id = ?").param(runId).update() > 0;
		});
	}

	/**
	 * Remove the checkpoints older than the time-to-live. Safe to run from several
	 * instances at once.
	 * @return how many were removed
	 */
	public long purgeExpired() {
		if (this.ttl.isZero()) {
			return 0;
		}
		Long removed = this.operations.callInTransactionRetrying(() -> {
			OffsetDateTime before = JdbcOperations.timestamp(this.clock.instant().minus(this.ttl));
			this.jdbc.sql("DELETE FROM " + this.entries + " WHERE run_id IN (SELECT run_id FROM " + this.checkpoints
					+ " WHERE updated_at <= ?)").param(before).update();
			return (long) this.jdbc.sql("DELETE FROM " + this.checkpoints + " WHERE updated_at <= ?")
				.param(before)
				.update();
		});
		return (removed != null) ? removed : 0;
	}

	/**
	 * Lock a run's row for the rest of the transaction, creating it (or starting an expired
	 * one afresh) when needed. A concurrent first write fails one of the two inserts with
	 * a duplicate key, and the transaction runs again.
	 */
	private Header lock(String runId) {
		List<Header> found = this.jdbc
			.sql("SELECT format_version, version, interrupts, updated_at FROM " + this.checkpoints
					+ " WHERE run_id = ? FOR UPDATE")
			.param(runId)
			.query((rs, row) -> new Header(rs.getInt(1), rs.getLong(2), rs.getInt(3),
					rs.getObject(4, OffsetDateTime.class).toInstant()))
			.list();
		OffsetDateTime now = JdbcOperations.timestamp(this.clock.instant());
		if (found.isEmpty()) {
			this.jdbc.sql("INSERT INTO " + this.checkpoints
					+ " (run_id, format_version, version, interrupts, updated_at) VALUES (?, ?, 0, 0, ?)")
				.params(runId, Checkpoint.FORMAT_VERSION, now)
				.update();
			return new Header(Checkpoint.FORMAT_VERSION, 0, 0, now.toInstant());
		}
		Header header = found.get(0);
		if (expired(header)) {
			this.jdbc.sql("DELETE FROM " + this.entries + " WHERE run_id = ?").param(runId).update();
			this.jdbc.sql("UPDATE " + this.checkpoints
					+ " SET format_version = ?, version = 0, interrupts = 0, updated_at = ? WHERE run_id = ?")
				.params(Checkpoint.FORMAT_VERSION, now, runId)
				.update();
			return new Header(Checkpoint.FORMAT_VERSION, 0, 0, now.toInstant());
		}
		if (header.format > Checkpoint.FORMAT_VERSION) {
			throw new CheckpointFormatException(runId, header.format);
		}
		return header;
	}

	private boolean touch(String runId, @Nullable Integer interrupts) {
		OffsetDateTime now = JdbcOperations.timestamp(this.clock.instant());
		if (interrupts != null) {
			this.jdbc.sql("UPDATE " + this.checkpoints
					+ " SET version = version + 1, interrupts = ?, updated_at = ? WHERE run_id = ?")
				.params(interrupts, now, runId)
				.update();
		}
		else {
			this.jdbc.sql("UPDATE " + this.checkpoints + " SET version = version + 1, updated_at = ? WHERE run_id = ?")
				.params(now, runId)
				.update();
		}
		return true;
	}

	private boolean hasEntry(String runId, String key) {
		return this.jdbc.sql("SELECT COUNT(*) FROM " + this.entries + " WHERE run_id = ? AND entry_key = ?")
			.params(runId, key)
			.query(Long.class)
			.single() > 0;
	}

	private void insertEntry(String runId, String key, String json) {
		this.jdbc.sql("INSERT INTO " + this.entries + " (run_id, entry_key, entry_value) VALUES (?, ?, ?)")
			.params(runId, key, json)
			.update();
	}

	private boolean expired(Header header) {
		return !this.ttl.isZero() && !header.updatedAt.plus(this.ttl).isAfter(this.clock.instant());
	}

	private record Header(int format, long version, int interrupts, Instant updatedAt) {

	}

}
