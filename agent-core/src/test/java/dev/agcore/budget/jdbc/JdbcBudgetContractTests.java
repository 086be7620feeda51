package dev.agcore.budget.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;


import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.jdbc.JdbcAuditSink;
import dev.agcore.budget.Budget;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.budget.BudgetMiddleware;
import dev.agcore.budget.BudgetScope;
import dev.agcore.budget.ManualTimeMeter;
import dev.agcore.budget.ProxyBudgetBuckets;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A budget in the database holds for every instance: two agents, each with its own proxy
 * manager as two application instances would have, count against the same rows; and the
 * audit sink writes its rows on the same platforms. Run on H2, PostgreSQL and MariaDB by
 * the subclasses.
 */
abstract class JdbcBudgetContractTests {

	private final ManualTimeMeter clock = new ManualTimeMeter();

	private HikariDataSource dataSource;

	private String prefix;

	protected abstract HikariDataSource dataSource();

	protected abstract String platform();

	@BeforeEach
	void createTables() {
		this.dataSource = dataSource();
		this.prefix = "b" + UUID.randomUUID().toString().substring(0, 8) + "_";
		JdbcBudgetProxyManager.SCHEMA.create(this.dataSource, platform(), this.prefix);
		JdbcAuditSink.SCHEMA.create(this.dataSource, platform(), this.prefix);
	}

	@AfterEach
	void dropTables() throws Exception {
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE " + this.prefix + "budget_bucket");
		}
		JdbcAuditSink.SCHEMA.drop(this.dataSource, this.prefix);
		this.dataSource.close();
	}

	@Test
	void turnsCountedByOneInstanceAreRefusedByAnotherUntilTheWindowPassed() {
		Budget budget = new Budget(2, 0, 0, BudgetScope.PRINCIPAL);
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok"));
		Agent first = agent(model, budget, proxyManager());
		Agent second = agent(model, budget, proxyManager());

		first.call(request("s1"));
		second.call(request("s2"));
		BudgetExceededException refused = assertThatExceptionOfType(BudgetExceededException.class)
			.isThrownBy(() -> first.call(request("s3")))
			.actual();

		assertThat(model.requests()).hasSize(2);
		this.clock.advance(refused.retryAfter());
		assertThat(second.call(request("s3")).output()).isEqualTo("ok");
	}

	@Test
	void rowsOfBucketsFullAgainArePurged() {
		JdbcBudgetProxyManager proxyManager = proxyManager();
		Agent agent = agent(ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")),
				new Budget(5, 0, 0, BudgetScope.PRINCIPAL), proxyManager);
		agent.call(request("s1"));

		assertThat(proxyManager.purgeExpired()).isZero();
		this.clock.advance(Duration.ofMinutes(3));
		assertThat(proxyManager.purgeExpired()).isOne();
	}

	@Test
	void auditSinkWritesEventsAsRows() throws Exception {
		JdbcAuditSink sink = new JdbcAuditSink(this.dataSource, this.prefix, Schedulers.immediate());
		Instant time = Instant.parse("2026-01-02T03:04:05Z");

		sink.onAuditEvent(new AuditEvent(AuditEvent.Kind.PERMISSION_DENIED, "files", "s1", "alice", "delete_file",
				"c1", "{\"path\":\"/tmp\"}", "denied", "destructive", time));
		sink.onAuditEvent(new AuditEvent(AuditEvent.Kind.BUDGET_EXCEEDED, "files", "s2", null, null, null, "",
				"turns_per_minute", "", time));

		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT kind, agent, session_id, user_id, tool, tool_call_id, "
						+ "arguments, outcome, detail, event_time FROM " + this.prefix + "audit_event ORDER BY id")) {
			assertThat(rows.next()).isTrue();
			assertThat(rows.getString("kind")).isEqualTo("PERMISSION_DENIED");
			assertThat(rows.getString("user_id")).isEqualTo("alice");
			assertThat(rows.getString("tool")).isEqualTo("delete_file");
			assertThat(rows.getString("arguments")).isEqualTo("{\"path\":\"/tmp\"}");
			assertThat(rows.getString("outcome")).isEqualTo("denied");
			assertThat(rows.getTimestamp("event_time").toInstant()).isEqualTo(time);
			assertThat(rows.next()).isTrue();
			assertThat(rows.getString("kind")).isEqualTo("BUDGET_EXCEEDED");
			assertThat(rows.getString("user_id")).isNull();
			assertThat(rows.next()).isFalse();
		}
	}

	private JdbcBudgetProxyManager proxyManager() {
		return new JdbcBudgetProxyManager(this.dataSource, this.prefix,
				ClientSideConfig.getDefault().withClientClock(this.clock));
	}

	private static Agent agent(ScriptedChatModel model, Budget budget, JdbcBudgetProxyManager proxyManager) {
		return Agent.builder()
			.name("budgeted")
			.model(model)
			.middleware(BudgetMiddleware.builder(budget, new ProxyBudgetBuckets(proxyManager)).build())
			.build();
	}

	private static AgentRequest request(String session) {
		return new AgentRequest(session, "hello", Map.of(), "alice");
	}

	static HikariDataSource pool(String url, String user) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(user);
		config.setMaximumPoolSize(4);
		config.setMinimumIdle(0);
		// an unreachable server fails on its driver's connect timeout; this only bounds the
		// wait for a pool connection, which a loaded machine can make long for H2's first one
		config.setConnectionTimeout(10_000);
		config.setInitializationFailTimeout(-1);
		return new HikariDataSource(config);
	}


}
