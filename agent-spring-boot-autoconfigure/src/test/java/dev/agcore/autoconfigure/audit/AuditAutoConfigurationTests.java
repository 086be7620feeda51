package dev.agcore.autoconfigure.audit;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import dev.agcore.AgentPrincipal;
import dev.agcore.Tool;
import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditListener;
import dev.agcore.audit.Auditor;
import dev.agcore.audit.jdbc.AuditChainVerification;
import dev.agcore.audit.jdbc.JdbcAuditSink;
import dev.agcore.audit.outbox.AuditOutbox;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.budget.BudgetAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.secret.SecretResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link AuditAutoConfiguration}: a configured agent's tool calls and budget
 * refusals are published, redacted, as {@link AgentAuditEvent}s and to
 * {@link AuditListener} beans, and written to the database when asked.
 */
class AuditAutoConfigurationTests {

	private static final String SECRET = "tok-4b1e9f07c2a6";

	@TempDir
	Path outbox;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AuditAutoConfiguration.class, BudgetAutoConfiguration.class,
				AgentAutoConfiguration.class))
		.withBean("mailTools", MailTools.class)
		.withBean("secrets", SecretResolver.class, () -> SecretResolver.of(Map.of("MAIL_KEY", SECRET)))
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.answering((request) -> (request.messages()
			.size() < 3)
				? ScriptedChatModel.toolCalls(new ToolCall("c1", "send_mail",
						"{\"to\":\"jane.doe@example.com\",\"apiKey\":\"<secret_ref:MAIL_KEY>\",\"body\":\"" + SECRET
								+ "\"}"))
				: ScriptedChatModel.text("sent")))
		.withPropertyValues("agent.agents.mailer.model=scripted", "agent.agents.mailer.tools=send_mail");

	@Test
	void toolCallsAndBudgetRefusalsArePublishedRedacted() {
		List<AuditEvent> heard = new CopyOnWriteArrayList<>();
		List<AuditEvent> published = new CopyOnWriteArrayList<>();
		this.contextRunner.withBean("listener", AuditListener.class, () -> heard::add)
			.withBean("applicationListener", ApplicationListener.class,
					() -> (ApplicationListener<AgentAuditEvent>) (event) -> published.add(event.event()))
			.withPropertyValues("agent.agents.mailer.budget.turns-per-minute=1")
			.run((context) -> {
				Agent agent = context.getBean(AgentRegistry.class).find("mailer").orElseThrow();
				asAlice(agent, new AgentRequest("s1", "mail jane", Map.of(), "alice"));
				assertThatExceptionOfType(BudgetExceededException.class)
					.isThrownBy(() -> asAlice(agent, new AgentRequest("s1", "again", Map.of(), "alice")));
			});

		assertThat(published).isEqualTo(heard);
		assertThat(heard).extracting(AuditEvent::kind)
			.containsExactly(AuditEvent.Kind.TOOL_CALL, AuditEvent.Kind.BUDGET_EXCEEDED);
		AuditEvent call = heard.get(0);
		assertThat(call.userId()).isEqualTo("alice");
		assertThat(call.tool()).isEqualTo("send_mail");
		assertThat(call.outcome()).isEqualTo("success");
		assertThat(call.arguments()).doesNotContain(SECRET, "jane.doe").contains("[REDACTED_EMAIL]");
		assertThat(heard.get(1).outcome()).isEqualTo("turns_per_minute");
	}

	@Test
	void disabledAuditPublishesNothing() {
		this.contextRunner.withPropertyValues("agent.audit.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Auditor.class));
	}

	@Test
	void jdbcSinkWritesEventsToTheApplicationDatabase() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"agent.audit.jdbc.enabled=true", "agent.audit.outbox.directory=" + this.outbox)
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcAuditSink.class);
				asAlice(context.getBean(AgentRegistry.class).find("mailer").orElseThrow(),
						new AgentRequest("s1", "mail jane", Map.of(), "alice"));
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				// the sink writes off the turn's thread
				long deadline = System.nanoTime() + 5_000_000_000L;
				while (jdbc.queryForObject("SELECT COUNT(*) FROM agent_audit_event", Long.class) == 0
						&& System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				Map<String, Object> row = jdbc.queryForMap("SELECT * FROM agent_audit_event");
				assertThat(row).containsEntry("KIND", "TOOL_CALL")
					.containsEntry("USER_ID", "alice")
					.containsEntry("TOOL", "send_mail")
					.containsEntry("OUTCOME", "success");
				assertThat((String) row.get("ARGUMENTS")).doesNotContain(SECRET, "jane.doe");
			});
	}

	@Test
	void withARetentionOlderRowsAreDeletedByTheNextWrite() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"agent.audit.jdbc.enabled=true", "agent.audit.jdbc.retention=30d",
					"agent.audit.outbox.directory=" + this.outbox)
			.run((context) -> {
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				insertRow(jdbc, "old", Instant.now().minus(Duration.ofDays(31)));
				insertRow(jdbc, "recent", Instant.now().minus(Duration.ofDays(29)));
				asAlice(context.getBean(AgentRegistry.class).find("mailer").orElseThrow(),
						new AgentRequest("s1", "mail jane", Map.of(), "alice"));
				long deadline = System.nanoTime() + 5_000_000_000L;
				while (jdbc.queryForObject("SELECT COUNT(*) FROM agent_audit_event WHERE session_id = 'old'",
						Long.class) > 0 && System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				assertThat(jdbc.queryForList("SELECT session_id FROM agent_audit_event ORDER BY id", String.class))
					.containsExactly("recent", "s1");
			});
	}

	@Test
	void aRetentionThatIsNotPositiveFailsStartupNamingTheProperty() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"agent.audit.jdbc.enabled=true", "agent.audit.jdbc.retention=0s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.audit.jdbc.retention must be positive"));
	}

	@Test
	void theJdbcSinkIsWrittenThroughAnOutboxAndChainedWhenAsked() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"agent.audit.jdbc.enabled=true", "agent.audit.chain=true",
					"agent.audit.outbox.directory=" + this.outbox)
			.run((context) -> {
				assertThat(context).hasSingleBean(AuditOutbox.class);
				AuditOutbox outbox = context.getBean(AuditOutbox.class);
				Agent agent = context.getBean(AgentRegistry.class).find("mailer").orElseThrow();
				asAlice(agent, new AgentRequest("s1", "mail jane", Map.of(), "alice"));
				asAlice(agent, new AgentRequest("s2", "mail jane", Map.of(), "alice"));
				assertThat(outbox.flush(Duration.ofSeconds(10))).isTrue();
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				// written once, through the outbox only
				assertThat(jdbc.queryForList("SELECT session_id FROM agent_audit_event ORDER BY chain_seq",
						String.class))
					.containsExactly("s1", "s2");
				AuditChainVerification verification = context.getBean(JdbcAuditSink.class).verify();
				assertThat(verification.intact()).isTrue();
				assertThat(verification.rows()).isEqualTo(2);
			});
	}

	@Test
	void anOutboxDirectoryInUseFailsStartupNamingTheProperty() {
		AuditOutbox holder = AuditOutbox.builder(this.outbox, (events) -> {
		}).build();
		try {
			this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
				.withPropertyValues(
						"spring.datasource.url=jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
						"agent.audit.jdbc.enabled=true", "agent.audit.outbox.directory=" + this.outbox)
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.rootCause()
					.hasMessageContaining("is in use by another outbox"));
		}
		finally {
			holder.close();
		}
	}

	@Test
	void anOutboxBoundThatIsNotPositiveFailsStartupNamingTheProperty() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"agent.audit.jdbc.enabled=true", "agent.audit.outbox.directory=" + this.outbox,
					"agent.audit.outbox.max-bytes=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.audit.outbox.max-bytes must be positive"));
	}

	private static void insertRow(JdbcTemplate jdbc, String sessionId, Instant time) {
		jdbc.update("INSERT INTO agent_audit_event (event_time, kind, agent, session_id, arguments, outcome, detail, "
				+ "event_id) VALUES (?, 'TOOL_CALL', 'mailer', ?, '{}', 'success', '', ?)", Timestamp.from(time),
				sessionId, UUID.randomUUID().toString());
	}

	static class MailTools {

		@Tool(name = "send_mail", secrets = "apiKey")
		String send(String to, String apiKey, String body) {
			return "sent to " + to;
		}

	}

	/** A turn of the authenticated user alice: a user id alone names nobody once Spring Security is present. */
	private static AgentResult asAlice(Agent agent, AgentRequest request) {
		return agent.invoke(request).contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice"))).block();
	}

}
