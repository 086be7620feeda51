package dev.agcore.audit.jdbc;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import javax.sql.DataSource;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditSink;
import dev.agcore.audit.AuditSinkException;
import dev.agcore.audit.outbox.AuditOutbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every database the JDBC audit sink runs on must do: keep each event once by its
 * id, keep what callers and models write, land every event exactly once through the
 * outbox after an outage of the database and after a crash of the instance, and, with a
 * chain, find a row edited or deleted. Each test has tables of its own prefix.
 */
abstract class AuditSinkContract {

	static final Duration FLUSH = Duration.ofSeconds(60);

	@TempDir
	Path outboxDirectory;

	private String prefix;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	/** The database of the tests. */
	protected abstract DataSource dataSource();

	/** The platform, as the schema scripts name it. */
	protected abstract String platform();

	/** A way to the database that can be cut and restored. */
	protected abstract Outage outage();

	/** A way to the database that a test can cut. */
	protected interface Outage extends AutoCloseable {

		DataSource dataSource();

		void cut();

		void restore();

	}

	@BeforeEach
	void createTables() {
		this.prefix = "audit_" + UUID.randomUUID().toString().substring(0, 8) + "_";
		JdbcAuditSink.SCHEMA.create(dataSource(), platform(), this.prefix);
	}

	@AfterEach
	void dropTables() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		JdbcAuditSink.SCHEMA.drop(dataSource(), this.prefix);
	}

	@Test
	void anEventStoredAgainIsKeptOnce() {
		JdbcAuditSink sink = sink(dataSource(), false);
		AuditEvent a = event(AuditEvent.Kind.TOOL_CALL, "s1");
		AuditEvent b = event(AuditEvent.Kind.ACCESS_DENIED, "s2");
		AuditEvent c = event(AuditEvent.Kind.BUDGET_EXCEEDED, "s3");

		sink.store(List.of(a, b));
		sink.store(List.of(b, a, c));

		assertThat(jdbc().queryForList("SELECT event_id FROM " + table() + " ORDER BY id", String.class))
			.containsExactly(a.id().toString(), b.id().toString(), c.id().toString());
		assertThat(jdbc().queryForList("SELECT kind FROM " + table() + " ORDER BY id", String.class))
			.containsExactly("TOOL_CALL", "ACCESS_DENIED", "BUDGET_EXCEEDED");
	}

	@Test
	void whatCallersWriteIsStoredEvenWhatTheDatabaseCannotKeepAsItIs() {
		JdbcAuditSink sink = sink(dataSource(), false);
		String longSession = "s".repeat(300);
		sink.store(List.of(event(AuditEvent.Kind.ACCESS_DENIED, "nul\0and\r\nline"),
				event(AuditEvent.Kind.ACCESS_DENIED, longSession),
				event(AuditEvent.Kind.ACCESS_DENIED, "lone\uD800surrogate")));

		assertThat(jdbc().queryForList("SELECT session_id FROM " + table() + " ORDER BY id", String.class))
			.containsExactly("nul\uFFFDand\r\nline", "s".repeat(255) + "…", "lone\uFFFDsurrogate");
	}

	@Test
	void eventsJournaledWhileTheDatabaseIsDownLandOnceItIsBack() throws Exception {
		Outage outage = this.register(outage());
		AuditOutbox outbox = register(AuditOutbox.builder(this.outboxDirectory, sink(outage.dataSource(), false))
			.backoff(Duration.ofMillis(20), Duration.ofMillis(200))
			.batchSize(7)
			.build());
		List<AuditEvent> before = publish(outbox, 10);
		assertThat(outbox.flush(FLUSH)).isTrue();

		outage.cut();
		List<AuditEvent> during = publish(outbox, 40);
		Thread.sleep(300);
		assertThat(outbox.pendingBytes()).isPositive();
		assertThat(count()).isEqualTo(10);

		outage.restore();
		assertThat(outbox.flush(FLUSH)).isTrue();
		assertExactlyOnce(before, during);
	}

	@Test
	void eventsJournaledBeforeACrashLandAfterTheRestart() throws Exception {
		Outage outage = register(outage());
		outage.cut();
		AuditOutbox crashed = AuditOutbox.builder(this.outboxDirectory, sink(outage.dataSource(), false))
			.backoff(Duration.ofMillis(20), Duration.ofMillis(100))
			.build();
		List<AuditEvent> journaled = publish(crashed, 30);
		// the process dies: nothing was stored, and the last append was cut short
		crashed.close();
		appendToLastSegment("0badc0de {\"id\":\"cut sh");

		AuditOutbox restarted = register(AuditOutbox.builder(this.outboxDirectory, sink(dataSource(), false)).build());

		assertThat(restarted.flush(FLUSH)).isTrue();
		assertExactlyOnce(journaled);
		assertThat(restarted.rejectedEvents()).isZero();
	}

	@Test
	void aWriteWhoseAcknowledgementWasLostIsNotStoredTwice() throws Exception {
		JdbcAuditSink sink = sink(dataSource(), false);
		AtomicBoolean lose = new AtomicBoolean(true);
		AuditSink losingAcknowledgements = (events) -> {
			sink.store(events);
			if (lose.getAndSet(false)) {
				throw new AuditSinkException("connection lost before the commit was confirmed", true,
						new SQLException("lost", "08006"));
			}
		};
		AuditOutbox outbox = register(AuditOutbox.builder(this.outboxDirectory, losingAcknowledgements)
			.backoff(Duration.ofMillis(10), Duration.ofMillis(50))
			.build());

		List<AuditEvent> events = publish(outbox, 20);

		assertThat(outbox.flush(FLUSH)).isTrue();
		assertThat(lose).isFalse();
		assertExactlyOnce(events);
	}

	@Test
	void anIntactChainVerifies() {
		JdbcAuditSink sink = sink(dataSource(), true);
		storeOneByOneAndInBatches(sink, 10);

		AuditChainVerification verification = sink.verify();

		assertThat(verification.intact()).as(verification.problem()).isTrue();
		assertThat(verification.rows()).isEqualTo(10);
		assertThat(verification.firstSeq()).isEqualTo(1);
		assertThat(verification.lastSeq()).isEqualTo(10);
	}

	@Test
	void aChainedEventStoredAgainIsKeptOnceAndTheChainHolds() {
		JdbcAuditSink sink = sink(dataSource(), true);
		AuditEvent a = event(AuditEvent.Kind.TOOL_CALL, "s1");
		sink.store(List.of(a));
		sink.store(List.of(a, event(AuditEvent.Kind.ACCESS_DENIED, "s2")));

		assertThat(count()).isEqualTo(2);
		assertThat(sink.verify().intact()).isTrue();
	}

	@Test
	void aChainFindsAnEditedRow() {
		JdbcAuditSink sink = sink(dataSource(), true);
		storeOneByOneAndInBatches(sink, 10);

		jdbc().update("UPDATE " + table() + " SET outcome = 'success' WHERE chain_seq = 4");

		AuditChainVerification verification = sink.verify();
		assertThat(verification.intact()).isFalse();
		assertThat(verification.brokenAt()).isEqualTo(4);
		assertThat(verification.problem()).contains("row 4", "edited");
	}

	@Test
	void aChainFindsADeletedRow() {
		JdbcAuditSink sink = sink(dataSource(), true);
		storeOneByOneAndInBatches(sink, 10);

		jdbc().update("DELETE FROM " + table() + " WHERE chain_seq = 6");

		AuditChainVerification verification = sink.verify();
		assertThat(verification.intact()).isFalse();
		assertThat(verification.brokenAt()).isEqualTo(5);
		assertThat(verification.problem()).contains("rows 6 to 6 are missing");
	}

	@Test
	void aChainFindsItsNewestRowsDeleted() {
		JdbcAuditSink sink = sink(dataSource(), true);
		storeOneByOneAndInBatches(sink, 10);

		jdbc().update("DELETE FROM " + table() + " WHERE chain_seq >= 9");

		AuditChainVerification verification = sink.verify();
		assertThat(verification.intact()).isFalse();
		assertThat(verification.problem()).contains("rows 9 to 10 are missing at the end");
	}

	@Test
	void aChainFindsARowEditedAndRehashedOnItsOwn() {
		JdbcAuditSink sink = sink(dataSource(), true);
		storeOneByOneAndInBatches(sink, 5);
		// whoever edits row 3 and writes its hash anew still breaks the link of row 4
		String previous = jdbc().queryForObject("SELECT prev_hash FROM " + table() + " WHERE chain_seq = 3",
				String.class);
		Map<String, Object> row = jdbc().queryForMap("SELECT * FROM " + table() + " WHERE chain_seq = 3");
		AuditEvent forged = new AuditEvent(AuditEvent.Kind.valueOf((String) row.get("kind")), "forged",
				(String) row.get("session_id"), null, null, null, "{}", "success", "",
				jdbc().queryForObject("SELECT event_time FROM " + table() + " WHERE chain_seq = 3", Timestamp.class)
					.toInstant(),
				UUID.fromString((String) row.get("event_id")));
		jdbc().update("UPDATE " + table() + " SET agent = 'forged', user_id = NULL, tool = NULL, tool_call_id = NULL, "
				+ "arguments = '{}', outcome = 'success', detail = '', row_hash = ? WHERE chain_seq = 3",
				ChainHash.of(previous, 3, forged));

		AuditChainVerification verification = sink.verify();
		assertThat(verification.intact()).isFalse();
		assertThat(verification.brokenAt()).isEqualTo(4);
	}

	@Test
	void twoInstancesExtendOneChainInTurn() throws Exception {
		JdbcAuditSink first = sink(dataSource(), true);
		JdbcAuditSink second = sink(dataSource(), true);
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> writes = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				JdbcAuditSink sink = (i % 2 == 0) ? first : second;
				writes.add(pool.submit(() -> {
					for (int j = 0; j < 10; j++) {
						sink.store(List.of(event(AuditEvent.Kind.TOOL_CALL, "s" + j),
								event(AuditEvent.Kind.TOOL_CALL, "t" + j)));
					}
				}));
			}
			for (Future<?> write : writes) {
				write.get();
			}
		}
		finally {
			pool.shutdown();
		}

		AuditChainVerification verification = first.verify();
		assertThat(verification.intact()).as(verification.problem()).isTrue();
		assertThat(verification.rows()).isEqualTo(80);
		assertThat(verification.lastSeq()).isEqualTo(80);
	}

	private void storeOneByOneAndInBatches(JdbcAuditSink sink, int count) {
		List<AuditEvent> batch = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			AuditEvent event = event((i % 2 == 0) ? AuditEvent.Kind.TOOL_CALL : AuditEvent.Kind.ACCESS_DENIED,
					"s" + i);
			if (i < count / 2) {
				sink.store(List.of(event));
			}
			else {
				batch.add(event);
			}
		}
		sink.store(batch);
	}

	private void assertExactlyOnce(List<AuditEvent>... published) {
		List<String> ids = Stream.of(published).flatMap(List::stream).map((event) -> event.id().toString()).toList();
		List<String> stored = jdbc().queryForList("SELECT event_id FROM " + table(), String.class);
		assertThat(stored).hasSize(ids.size()).containsExactlyInAnyOrderElementsOf(ids);
	}

	private List<AuditEvent> publish(AuditOutbox outbox, int count) {
		List<AuditEvent> events = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			AuditEvent event = event(AuditEvent.Kind.TOOL_CALL, "s" + i);
			outbox.onAuditEvent(event);
			events.add(event);
		}
		return events;
	}

	private void appendToLastSegment(String text) throws Exception {
		Path last;
		try (Stream<Path> files = Files.list(this.outboxDirectory)) {
			last = files.filter((file) -> file.getFileName().toString().startsWith("segment-"))
				.sorted()
				.reduce((a, b) -> b)
				.orElseThrow();
		}
		try (FileChannel channel = FileChannel.open(last, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
			channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
		}
	}

	static AuditEvent event(AuditEvent.Kind kind, String sessionId) {
		return new AuditEvent(kind, "mailer", sessionId, "alice", "send_mail", "c1",
				"{\"to\":\"[REDACTED_EMAIL]\"}", "denied", "not yours", Instant.now());
	}

	private JdbcAuditSink sink(DataSource dataSource, boolean chain) {
		return new JdbcAuditSink(dataSource, this.prefix).platform(platform()).chain(chain);
	}

	private <T extends AutoCloseable> T register(T closeable) {
		this.closeables.add(closeable);
		return closeable;
	}

	private long count() {
		return jdbc().queryForObject("SELECT COUNT(*) FROM " + table(), Long.class);
	}

	private String table() {
		return this.prefix + "audit_event";
	}

	private JdbcTemplate jdbc() {
		return new JdbcTemplate(dataSource());
	}

	/** Cuts a data source off by failing every new connection, as a pool whose database is gone. */
	static final class SwitchedDataSource extends org.springframework.jdbc.datasource.DelegatingDataSource
			implements Outage {

		private volatile boolean cut;

		SwitchedDataSource(DataSource target) {
			super(target);
		}

		@Override
		public Connection getConnection() throws SQLException {
			if (this.cut) {
				throw new java.sql.SQLTransientConnectionException("the database is down", "08001");
			}
			return super.getConnection();
		}

		@Override
		public DataSource dataSource() {
			return this;
		}

		@Override
		public void cut() {
			this.cut = true;
		}

		@Override
		public void restore() {
			this.cut = false;
		}

		@Override
		public void close() {
		}

	}

	static void execute(DataSource dataSource, String sql) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
