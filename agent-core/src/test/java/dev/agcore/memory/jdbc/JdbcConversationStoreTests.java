package dev.agcore.memory.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.run.MutableClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What the JDBC conversation store does beyond the contract: claims that expire, the
 * capacity in sessions, the schema, and errors that say what to do.
 */
class JdbcConversationStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static HikariDataSource dataSource;

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDatabases.h2("store");
		JdbcMemorySchema.create(dataSource, "h2", "t_");
		// a second run creates nothing and fails nothing
		JdbcMemorySchema.create(dataSource, "h2", "t_");
	}

	@AfterAll
	static void closeDatabase() {
		dataSource.close();
	}

	private JdbcConversationStore store(int maxSessions) {
		return JdbcConversationStore.builder(dataSource)
			.tablePrefix("t_")
			.maxSessions(maxSessions)
			.claimTimeout(Duration.ofMinutes(1))
			.clock(this.clock)
			.build();
	}

	@Test
	void aClaimOlderThanTheClaimTimeoutExpiresSoACrashedResumptionDoesNotHoldTheTurn() {
		ConversationStore one = store(0);
		ConversationStore two = store(0);
		PendingTurn paused = paused();
		one.savePending("claim", 0, paused).block(TIMEOUT);

		assertThat(one.claimPending("claim", paused).block(TIMEOUT)).isTrue();
		this.clock.advance(Duration.ofSeconds(59));
		assertThat(two.claimPending("claim", paused).block(TIMEOUT)).isFalse();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(two.claimPending("claim", paused).block(TIMEOUT)).isTrue();
		assertThat(one.claimPending("claim", paused).block(TIMEOUT)).isFalse();
	}

	@Test
	void beyondItsCapacityThePurgeRemovesTheLeastRecentlyUsedSessionsPassingOverPausedOnes() {
		// tables of its own, so only these sessions count
		JdbcMemorySchema.create(dataSource, "h2", "cap_");
		JdbcConversationStore store = JdbcConversationStore.builder(dataSource)
			.tablePrefix("cap_")
			.maxSessions(2)
			.clock(this.clock)
			.build();
		store.savePending("paused", 0, paused()).block(TIMEOUT);
		this.clock.advance(Duration.ofSeconds(1));
		store.append("old", 0, List.of(new UserMessage("old"))).block(TIMEOUT);
		this.clock.advance(Duration.ofSeconds(1));
		store.append("new", 0, List.of(new UserMessage("new"))).block(TIMEOUT);

		assertThat(store.purgeExpired()).isEqualTo(1);

		assertThat(store.load("old").block(TIMEOUT).messages()).isEmpty();
		assertThat(store.loadPending("paused").block(TIMEOUT)).isEqualTo(paused());
		assertThat(store.load("new").block(TIMEOUT).messages()).containsExactly(new UserMessage("new"));
		assertThat(store.purgeExpired()).isZero();
	}

	@Test
	void anAppendRunsAsManyStatementsWhateverTheLengthOfTheHistory() throws Exception {
		CountingDataSource counting = new CountingDataSource(dataSource);
		JdbcConversationStore store = JdbcConversationStore.builder(counting)
			.tablePrefix("t_")
			.maxMessagesPerSession(100_000)
			.build();
		List<Message> turn = List.of(new UserMessage("q"), AssistantMessage.of("a"));
		List<Message> longHistory = new ArrayList<>();
		for (int i = 0; i < 5_000; i++) {
			longHistory.add(new UserMessage("m" + i));
		}
		store.append("short", 0, turn).block(TIMEOUT);
		store.append("long", 0, longHistory).block(TIMEOUT);

		counting.statements.set(0);
		store.append("short", 1, turn).block(TIMEOUT);
		int shortStatements = counting.statements.get();
		counting.statements.set(0);
		store.append("long", 1, turn).block(TIMEOUT);
		int longStatements = counting.statements.get();

		// the version update, the new sequence, two message rows
		assertThat(shortStatements).isEqualTo(4).isEqualTo(longStatements);
		assertThat(store.load("long").block(TIMEOUT).messages()).hasSize(5_002);
	}

	@Test
	void withoutItsTablesTheStoreSaysHowToCreateThem() {
		ConversationStore store = JdbcConversationStore.builder(dataSource).tablePrefix("missing_").build();
		assertThatExceptionOfType(MemoryException.class).isThrownBy(() -> store.load("s").block(TIMEOUT))
			.withMessageContaining("missing_session")
			.withMessageContaining("agent.memory.jdbc.initialize-schema=always");
	}

	@Test
	void aTablePrefixOtherThanLettersDigitsAndUnderscoresIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JdbcConversationStore.builder(dataSource).tablePrefix("agent; DROP TABLE x; --"))
			.withMessageContaining("letters, digits and underscores");
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcMemorySchema.statements("h2", "a-b"));
		assertThat(JdbcMemorySchema.statements("postgresql", "my_app_")).allSatisfy(
				(statement) -> assertThat(statement).doesNotContain("${prefix}").contains("my_app_"));
	}

	@Test
	void aPlatformWithoutAScriptIsNamedWithThoseThatHaveOne() {
		assertThatExceptionOfType(MemoryException.class).isThrownBy(() -> JdbcMemorySchema.statements("oracle", "a_"))
			.withMessageContaining("'oracle'")
			.withMessageContaining("postgresql, h2, mariadb");
		assertThat(JdbcMemorySchema.detectPlatform(dataSource)).isEqualTo("h2");
	}

	private static PendingTurn paused() {
		ToolCall call = new ToolCall("c1", "delete_file", "{}");
		return new PendingTurn("assistant", List.of(new UserMessage("delete"), AssistantMessage.of(List.of(call))),
				List.of(new PendingTurn.PendingToolCall("c1", "delete_file", "{}", "needs approval")), 1, 1, 1);
	}

	/**
	 * Counts the statements run on its connections, each row of a batch as one, so a
	 * rewrite of the history would show.
	 */
	static final class CountingDataSource extends DelegatingDataSource {

		final AtomicInteger statements = new AtomicInteger();

		CountingDataSource(DataSource target) {
			super(target);
		}

		@Override
		public Connection getConnection() throws SQLException {
			return counting(super.getConnection(), Connection.class);
		}

		private <T> T counting(T target, Class<T> type) {
			return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { type },
					(proxy, method, args) -> {
						String name = method.getName();
						if (name.equals("addBatch") || (name.startsWith("execute") && !name.equals("executeBatch"))) {
							this.statements.incrementAndGet();
						}
						try {
							Object result = method.invoke(target, args);
							if (result instanceof PreparedStatement statement) {
								return counting(statement, PreparedStatement.class);
							}
							return result;
						}
						catch (InvocationTargetException ex) {
							throw ex.getCause();
						}
					}));
		}

	}

}
