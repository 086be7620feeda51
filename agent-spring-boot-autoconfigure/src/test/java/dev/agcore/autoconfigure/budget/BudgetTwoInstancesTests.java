package dev.agcore.autoconfigure.budget;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.LocalServices;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.audit.AuditAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.memory.redis.RedisMemoryAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.budget.BudgetBuckets;
import dev.agcore.budget.ProxyBudgetBuckets;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances on one Redis, or one PostgreSQL database, share a budget: the
 * turn one instance let through counts on the other, which answers 429 with Retry-After.
 * Skipped when the server is not running, failed on CI.
 */
class BudgetTwoInstancesTests {

	private static final String REDIS_PREFIX = "agcore-test:budget:" + UUID.randomUUID() + ":";

	private static final String POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String TABLE_PREFIX = "bud_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	private final ScriptedChatModel model = ScriptedChatModel
		.answering((request) -> ScriptedChatModel.text("ok"));

	private final ReactiveWebApplicationContextRunner instance = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AuditAutoConfiguration.class, BudgetAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model)
		.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.model=scripted",
				"agent.agents.assistant.budget.turns-per-minute=1");

	@Test
	void redisBudgetRefusesOnOneInstanceWhatTheOtherSpent() {
		LocalServices.require("Redis", 6379);
		this.instance
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class, RedisMemoryAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379",
					"agent.memory.store=redis", "agent.memory.redis.key-prefix=" + REDIS_PREFIX,
					"agent.budget.redis-key-prefix=" + REDIS_PREFIX + "budget:")
			.run((first) -> this.instance
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
						DataRedisReactiveAutoConfiguration.class, RedisMemoryAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379",
						"agent.memory.store=redis", "agent.memory.redis.key-prefix=" + REDIS_PREFIX,
						"agent.budget.redis-key-prefix=" + REDIS_PREFIX + "budget:")
				.run((second) -> spendOnOneRefuseOnTheOther(first, second)));
	}

	@Test
	void jdbcBudgetRefusesOnOneInstanceWhatTheOtherSpent() {
		LocalServices.require("PostgreSQL", 5432);
		ReactiveWebApplicationContextRunner onPostgres = this.instance
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					JdbcMemoryAutoConfiguration.class))
			.withPropertyValues("agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
					"agent.memory.jdbc.table-prefix=" + TABLE_PREFIX, "spring.datasource.url=" + POSTGRES_URL,
					"spring.datasource.username=postgres");
		onPostgres.run((first) -> onPostgres.run((second) -> spendOnOneRefuseOnTheOther(first, second)));
	}

	private void spendOnOneRefuseOnTheOther(AssertableReactiveWebApplicationContext first,
			AssertableReactiveWebApplicationContext second) {
		assertThat(first.getBean(BudgetBuckets.class)).isInstanceOf(ProxyBudgetBuckets.class);
		String user = "user-" + UUID.randomUUID();
		invoke(first, user).expectStatus().isOk();
		invoke(second, user).expectStatus()
			.isEqualTo(429)
			.expectHeader()
			.value(HttpHeaders.RETRY_AFTER, (seconds) -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L))
			.expectBody()
			.jsonPath("$.error")
			.isEqualTo("budget_exceeded")
			.jsonPath("$.message")
			.value((String message) -> assertThat(message).contains("1 turns per minute", "try again in"));
		assertThat(this.model.requests()).hasSize(1);
	}

	private static WebTestClient.ResponseSpec invoke(AssertableReactiveWebApplicationContext context, String user) {
		RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
		return WebTestClient.bindToRouterFunction(router)
			.build()
			.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", "s-" + UUID.randomUUID(), "message", "hi", "userId", user))
			.exchange();
	}

	@AfterAll
	static void cleanUp() {
		if (reachable(6379)) {
			new ReactiveWebApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
						DataRedisReactiveAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379")
				.run((context) -> {
					ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
					redis.scan(ScanOptions.scanOptions().match(REDIS_PREFIX + "*").build())
						.flatMap(redis::delete)
						.blockLast(Duration.ofSeconds(10));
				});
		}
		if (reachable(5432)) {
			DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), POSTGRES_URL, "postgres",
					"");
			JdbcMemorySchema.drop(dataSource, TABLE_PREFIX);
			new JdbcTemplate(dataSource)
				.execute("DROP TABLE IF EXISTS " + TABLE_PREFIX + "budget_bucket");
		}
	}

	private static boolean reachable(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
