package dev.agcore.run.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

import javax.sql.DataSource;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.jdbc.JdbcOperations;
import dev.agcore.memory.jdbc.JdbcSchema;
import dev.agcore.run.IdempotencyConflictException;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunIdempotency;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStateException;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Keeps runs and their events in a relational database, in the tables
 * {@code <prefix>runs} and {@code <prefix>run_events} ({@link #SCHEMA}), shared by
 * every instance of the application.
 * <p>
 * Made for PostgreSQL: workers claim with {@code SELECT ... FOR UPDATE SKIP LOCKED}, so
 * concurrent claimers never wait for each other nor take the same run; the per-session
 * limit is exact across instances (a transaction-scoped advisory lock per session while
 * claiming); events are numbered by incrementing the run's row, which serialises
 * concurrent appends to one run, and announced with {@code NOTIFY} in the same
 * transaction, delivered on commit to the one {@code LISTEN}ing connection of each
 * instance ({@link #appended()}, {@link #submitted()}). H2 and MariaDB 10.6+ work too for
 * development and single-instance use: claims are exclusive there as well, the session
 * limit holds per instance only, and {@link #appended()} and {@link #submitted()} never
 * signal (readers and workers poll). Other databases are refused.
 * <p>
 * Time is the injected {@link Clock}'s, passed to every statement as a parameter, never
 * the database's: instances' clocks must agree to within a small part of the lease.
 * <p>
 * {@link #close()} closes the listening connection.
 *
 * @since 0.1.0
 */
public final class JdbcRunStore implements RunStore, AutoCloseable {

	private static final List<String> FINAL = List.of(RunStatus.COMPLETED.name(), RunStatus.FAILED.name(),
			RunStatus.CANCELLED.name());

	/**
	 * The tables, {@code <prefix>runs} and {@code <prefix>run_events}, and their scripts
	 * ({@code dev/agcore/run/jdbc/schema-<platform>.sql}).
	 */
	public static final JdbcSchema SCHEMA = new JdbcSchema("run", "JDBC run store", "dev/agcore/run/jdbc",
			List.of("runs", "run_events"));

	private static final JdbcOperations.Store STORE = SCHEMA.store("JDBC run store")
		.untranslated(RunStateException.class, RunNotFoundException.class, IllegalArgumentException.class,
				IdempotencyConflictException.class);

	private final DataSource dataSource;

	private final JdbcOperations jdbc;

	private final String runs;

	private final String events;

	private final Clock clock;

	private final String eventsChannel;

	private final String submittedChannel;

	// created on the first subscription on PostgreSQL, so other databases need no PostgreSQL driver
	private @Nullable PostgresNotifications notifications;

	private boolean closed;

	// serialises this instance's claims on databases without advisory locks
	private final ReentrantLock claimLock = new ReentrantLock();

	private volatile @Nullable String platform;

	private JdbcRunStore(Builder builder) {
		this.dataSource = builder.dataSource;
		this.jdbc = new JdbcOperations(STORE, builder.dataSource, builder.tablePrefix);
		this.runs = builder.tablePrefix + "runs";
		this.events = builder.tablePrefix + "run_events";
		this.clock = builder.clock;
		this.platform = builder.platform;
		String channel = builder.tablePrefix.toLowerCase(Locale.ROOT);
		this.eventsChannel = channel + "run_events";
		this.submittedChannel = channel + "runs_submitted";
	}

	/**
	 * Start building a store on a database whose tables exist (see {@link #SCHEMA}).
	 * @param dataSource the database
	 * @return the builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	@Override
	public Mono<Run> submit(RunRequest request, @Nullable RunIdempotency idempotency) {
		// two submits with one key: the loser's insert fails on the unique scoped key, and its retry finds
		// the winner's run
		return this.jdbc.inTransactionRetrying(() -> {
			if (idempotency != null) {
				Run existing = findByKey(idempotency);
				if (existing != null) {
					return existing;
				}
			}
			String id = UUID.randomUUID().toString();
			OffsetDateTime now = now();
			OffsetDateTime notBefore = RunRows.timestamp(request.notBefore());
			this.jdbc.jdbcClient()
				.sql("INSERT INTO " + this.runs + " (id, kind, target, session_id, user_id, input, not_before, "
						+ "deadline_millis, idempotency_key, idempotency_digest, request_fingerprint, status, "
						+ "available_at, attempts, cancel_requested, last_event, created_at) "
						+ "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, FALSE, 0, ?)")
				.params(id, request.kind(), request.target(), request.sessionId(), request.userId(),
						RunRows.text(request.input()), notBefore,
						(request.deadline() != null) ? request.deadline().toMillis() : null, request.idempotencyKey(),
						(idempotency != null) ? idempotency.key() : null,
						(idempotency != null) ? idempotency.fingerprint() : null, RunStatus.QUEUED.name(),
						(notBefore != null) ? notBefore : now, now)
				.update();
			notify(this.submittedChannel, id);
			return findBy("id", id);
		});
	}

	// the run of a scoped key, if its request had the same fingerprint
	private @Nullable Run findByKey(RunIdempotency idempotency) {
		List<String[]> found = this.jdbc.jdbcClient()
			.sql("SELECT id, request_fingerprint FROM " + this.runs + " WHERE idempotency_digest = ?")
			.param(idempotency.key())
			.query((rs, row) -> new String[] { rs.getString(1), rs.getString(2) })
			.list();
		if (found.isEmpty()) {
			return null;
		}
		if (!idempotency.fingerprint().equals(found.get(0)[1])) {
			throw new IdempotencyConflictException();
		}
		return findBy("id", found.get(0)[0]);
	}

	@Override
	public Mono<Long> countQueued() {
		return this.jdbc.inTransaction(() -> this.jdbc.jdbcClient()
			.sql("SELECT COUNT(*) FROM " + this.runs + " WHERE status = ?")
			.params(RunStatus.QUEUED.name())
			.query(Long.class)
			.single());
	}

	@Override
	public Mono<Run> find(String runId) {
		return this.jdbc.inTransaction(() -> findBy("id", runId));
	}

	@Override
	public Flux<Run> list(String sessionId, int offset, int limit) {
		if (offset < 0 || limit < 1) {
			return Flux.error(new IllegalArgumentException("'offset' must be at least 0 and 'limit' at least 1"));
		}
		return this.jdbc.inTransaction(() -> this.jdbc.jdbcClient()
			.sql("SELECT " + RunRows.RUN_COLUMNS + " FROM " + this.runs
					+ " WHERE session_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
			.params(sessionId, limit, offset)
			.query(RunRows::run)
			.list()).flatMapIterable((found) -> found);
	}

	@Override
	public Flux<Run> claim(String owner, ClaimSettings settings) {
		return this.jdbc.inTransaction(() -> {
			boolean postgres = isPostgres();
			if (!postgres) {
				this.claimLock.lock();
			}
			try {
				return new RunClaim(this, owner, settings, postgres).claim();
			}
			finally {
				if (!postgres) {
					this.claimLock.unlock();
				}
			}
		}).flatMapIterable((claimed) -> claimed);
	}

	@Override
	public Mono<Lease> heartbeat(String runId, String owner, Duration lease) {
		return this.jdbc.inTransaction(() -> {
			int renewed = this.jdbc.jdbcClient()
				.sql("UPDATE " + this.runs + " SET lease_expires_at = ? WHERE id = ? AND owner = ? AND status = ?")
				.params(RunRows.timestamp(this.clock.instant().plus(lease)), runId, owner, RunStatus.RUNNING.name())
				.update();
			if (renewed == 0) {
				return Lease.LOST;
			}
			boolean cancel = this.jdbc.jdbcClient()
				.sql("SELECT cancel_requested FROM " + this.runs + " WHERE id = ?")
				.param(runId)
				.query(Boolean.class)
				.single();
			return cancel ? Lease.CANCEL_REQUESTED : Lease.HELD;
		});
	}

	@Override
	public Mono<Boolean> finish(String runId, String owner, RunOutcome outcome) {
		return this.jdbc.inTransaction(() -> {
			OffsetDateTime now = now();
			Run.RunError error = outcome.error();
			return this.jdbc.jdbcClient()
				.sql("UPDATE " + this.runs + " SET status = ?, result = ?, error_code = ?, error_message = ?, "
						+ "owner = NULL, lease_expires_at = NULL, finished_at = ? WHERE id = ? AND owner = ? AND status = ?")
				.params(outcome.status().name(), RunRows.text(outcome.result()),
						(error != null) ? error.code() : null, (error != null) ? error.message() : null,
						outcome.status().isFinal() ? now : null, runId, owner, RunStatus.RUNNING.name())
				.update() > 0;
		});
	}

	@Override
	public Mono<Boolean> release(String runId, String owner) {
		return this.jdbc.inTransaction(() -> {
			boolean released = this.jdbc.jdbcClient()
				.sql("UPDATE " + this.runs + " SET status = ?, owner = NULL, lease_expires_at = NULL, available_at = ? "
						+ "WHERE id = ? AND owner = ? AND status = ?")
				.params(RunStatus.QUEUED.name(), now(), runId, owner, RunStatus.RUNNING.name())
				.update() > 0;
			if (released) {
				notify(this.submittedChannel, runId);
			}
			return released;
		});
	}

	@Override
	public Mono<Run> cancel(String runId) {
		return this.jdbc.inTransaction(() -> {
			RunStatus status = lockStatus(runId);
			if (status == RunStatus.QUEUED || status == RunStatus.INTERRUPTED) {
				this.jdbc.jdbcClient()
					.sql("UPDATE " + this.runs + " SET status = ?, owner = NULL, lease_expires_at = NULL, "
							+ "finished_at = ? WHERE id = ?")
					.params(RunStatus.CANCELLED.name(), now(), runId)
					.update();
				appendInTransaction(runId, RunEvent.CANCELLED, JsonNodeFactory.instance.objectNode());
			}
			else if (status == RunStatus.RUNNING) {
				this.jdbc.jdbcClient()
					.sql("UPDATE " + this.runs + " SET cancel_requested = TRUE WHERE id = ?")
					.param(runId)
					.update();
			}
			return findBy("id", runId);
		});
	}

	@Override
	public Mono<Run> resume(String runId, JsonNode resume) {
		return this.jdbc.inTransaction(() -> {
			RunStatus status = lockStatus(runId);
			if (status != RunStatus.INTERRUPTED) {
				throw new RunStateException("Run '" + runId + "' is " + status.name().toLowerCase(Locale.ROOT)
						+ ", not interrupted: only an interrupted run can be resumed");
			}
			this.jdbc.jdbcClient()
				.sql("UPDATE " + this.runs + " SET status = ?, resume = ?, result = NULL, cancel_requested = FALSE, "
						+ "attempts = 0, available_at = ? WHERE id = ?")
				.params(RunStatus.QUEUED.name(), RunRows.text(resume), now(), runId)
				.update();
			notify(this.submittedChannel, runId);
			return findBy("id", runId);
		});
	}

	@Override
	public Mono<RunEvent> append(String runId, String type, JsonNode data) {
		return this.jdbc.inTransaction(() -> appendInTransaction(runId, type, data));
	}

	/**
	 * Append an event in the current transaction: the increment locks the run's row until
	 * commit, so concurrent appends to one run are numbered one after the other.
	 */
	RunEvent appendInTransaction(String runId, String type, JsonNode data) {
		int updated = this.jdbc.jdbcClient()
			.sql("UPDATE " + this.runs + " SET last_event = last_event + 1 WHERE id = ?")
			.param(runId)
			.update();
		if (updated == 0) {
			throw new RunNotFoundException(runId);
		}
		long sequence = this.jdbc.jdbcClient()
			.sql("SELECT last_event FROM " + this.runs + " WHERE id = ?")
			.param(runId)
			.query(Long.class)
			.single();
		OffsetDateTime now = now();
		this.jdbc.jdbcClient()
			.sql("INSERT INTO " + this.events + " (run_id, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?)")
			.params(runId, sequence, type, RunRows.text(data), now)
			.update();
		notify(this.eventsChannel, runId);
		return new RunEvent(runId, sequence, type, data, now.toInstant());
	}

	@Override
	public Flux<RunEvent> read(String runId, long afterSequence, int limit) {
		if (limit < 1) {
			return Flux.error(new IllegalArgumentException("'limit' must be at least 1, was " + limit));
		}
		return this.jdbc.inTransaction(() -> this.jdbc.jdbcClient()
			.sql("SELECT " + RunRows.EVENT_COLUMNS + " FROM " + this.events
					+ " WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?")
			.params(runId, afterSequence, limit)
			.query(RunRows::event)
			.list()).flatMapIterable((found) -> found);
	}

	@Override
	public Flux<String> appended() {
		return signals(() -> ifOpen(PostgresNotifications::appended));
	}

	@Override
	public Flux<String> submitted() {
		return signals(() -> ifOpen(PostgresNotifications::submitted));
	}

	// the platform may be unknown until the database answers: wait for it, then listen or stay silent
	private Flux<String> signals(java.util.function.Supplier<Flux<String>> postgres) {
		return Mono.fromCallable(this::isPostgres)
			.subscribeOn(Schedulers.boundedElastic())
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofSeconds(1))
				.maxBackoff(Duration.ofSeconds(30))
				.filter(MemoryUnavailableException.class::isInstance))
			.flatMapMany((listen) -> listen ? postgres.get() : Flux.never());
	}

	@Override
	public Mono<Long> purge(Duration retention) {
		return this.jdbc.inTransaction(() -> {
			OffsetDateTime cut = RunRows.timestamp(this.clock.instant().minus(retention));
			String finished = " WHERE status IN (?, ?, ?) AND finished_at < ?";
			List<Object> params = new ArrayList<>(FINAL);
			params.add(cut);
			this.jdbc.jdbcClient()
				.sql("DELETE FROM " + this.events + " WHERE run_id IN (SELECT id FROM " + this.runs + finished + ")")
				.params(params)
				.update();
			return (long) this.jdbc.jdbcClient().sql("DELETE FROM " + this.runs + finished).params(params).update();
		});
	}

	/** Close the listening connection; the store's other operations keep working. */
	@Override
	public void close() {
		PostgresNotifications listening;
		synchronized (this) {
			this.closed = true;
			listening = this.notifications;
		}
		if (listening != null) {
			listening.close();
		}
	}

	private synchronized Flux<String> ifOpen(java.util.function.Function<PostgresNotifications, Flux<String>> signals) {
		if (this.closed) {
			return Flux.empty();
		}
		if (this.notifications == null) {
			this.notifications = new PostgresNotifications(this.dataSource, this.eventsChannel, this.submittedChannel);
		}
		return signals.apply(this.notifications);
	}

	/** The backend process id of the listening connection, 0 when not listening; for tests. */
	synchronized int listenerBackendPid() {
		return (this.notifications != null) ? this.notifications.backendPid() : 0;
	}

	JdbcOperations jdbc() {
		return this.jdbc;
	}

	String runsTable() {
		return this.runs;
	}

	String eventsChannel() {
		return this.eventsChannel;
	}

	OffsetDateTime now() {
		return Objects.requireNonNull(RunRows.timestamp(this.clock.instant()));
	}

	/** {@code NOTIFY} on PostgreSQL, delivered when the transaction commits; nothing elsewhere. */
	void notify(String channel, String runId) {
		if (isPostgres()) {
			this.jdbc.jdbcTemplate().query("SELECT pg_notify(?, ?)", (rs) -> null, channel, runId);
		}
	}

	private @Nullable Run findBy(String column, Object value) {
		List<Run> found = this.jdbc.jdbcClient()
			.sql("SELECT " + RunRows.RUN_COLUMNS + " FROM " + this.runs + " WHERE " + column + " = ?")
			.param(value)
			.query(RunRows::run)
			.list();
		return found.isEmpty() ? null : found.get(0);
	}

	/** The runs of the given ids, oldest first, in the current transaction. */
	List<Run> findAll(List<String> ids) {
		if (ids.isEmpty()) {
			return List.of();
		}
		String marks = String.join(", ", java.util.Collections.nCopies(ids.size(), "?"));
		return this.jdbc.jdbcClient()
			.sql("SELECT " + RunRows.RUN_COLUMNS + " FROM " + this.runs + " WHERE id IN (" + marks
					+ ") ORDER BY created_at, id")
			.params(new ArrayList<Object>(ids))
			.query(RunRows::run)
			.list();
	}

	private RunStatus lockStatus(String runId) {
		List<String> status = this.jdbc.jdbcClient()
			.sql("SELECT status FROM " + this.runs + " WHERE id = ? FOR UPDATE")
			.param(runId)
			.query(String.class)
			.list();
		if (status.isEmpty()) {
			throw new RunNotFoundException(runId);
		}
		return RunStatus.valueOf(status.get(0));
	}

	private boolean isPostgres() {
		String known = this.platform;
		if (known == null) {
			known = detectPlatform(this.dataSource);
			this.platform = known;
		}
		return "postgresql".equals(known);
	}

	private static String detectPlatform(DataSource dataSource) {
		String detected;
		try {
			detected = JdbcSchema.detectPlatform(dataSource);
		}
		catch (MemoryException ex) {
			throw new MemoryUnavailableException("The JDBC run store cannot reach its database to tell its platform; "
					+ "it tries again at the next operation", ex);
		}
		return requireSupported(detected);
	}

	private static String requireSupported(String platform) {
		String name = platform.toLowerCase(Locale.ROOT);
		if (!JdbcSchema.PLATFORMS.contains(name)) {
			throw new MemoryException("The JDBC run store works on PostgreSQL (and on H2 and MariaDB 10.6+ for "
					+ "development), not on '" + platform + "': use one of them for background runs, or another run "
					+ "store");
		}
		return name;
	}

	/**
	 * Builds a {@link JdbcRunStore}.
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String tablePrefix = JdbcSchema.DEFAULT_PREFIX;

		private Clock clock = Clock.systemUTC();

		private @Nullable String platform;

		private Builder(DataSource dataSource) {
			this.dataSource = Objects.requireNonNull(dataSource, "'dataSource' must not be null");
		}

		/**
		 * Set the prefix of the table names (and of the notification channels).
		 * @param tablePrefix letters, digits and underscores; {@code agent_} by default
		 * @return this builder
		 */
		public Builder tablePrefix(String tablePrefix) {
			this.tablePrefix = JdbcSchema.validatePrefix(tablePrefix);
			return this;
		}

		/**
		 * Set the clock that tells now, for leases, {@code notBefore} and timestamps.
		 * @param clock the clock; the system's UTC clock by default
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
			return this;
		}

		/**
		 * Set the database platform rather than asking the database at the first operation.
		 * @param platform {@code postgresql}, {@code h2} or {@code mariadb}
		 * @return this builder
		 * @throws MemoryException for another platform
		 */
		public Builder platform(String platform) {
			this.platform = requireSupported(platform);
			return this;
		}

		/**
		 * Build the store.
		 * @return the store
		 */
		public JdbcRunStore build() {
			return new JdbcRunStore(this);
		}

	}

}
