package dev.agcore.autoconfigure.budget;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import javax.sql.DataSource;

import dev.agcore.AgentPrincipal;
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
import dev.agcore.autoconfigure.web.PrincipalResolver;
import dev.agcore.budget.BudgetBuckets;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.budget.ProxyBudgetBuckets;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.memory.window.TokenCounter;
import dev.agcore.message.AssistantMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.TimeMeter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;
import reactor.util.function.Tuple2;

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
 * turn one instance let through counts on the other, which answers 429 with Retry-After;
 * and 50 turns of one user started at once on both never reserve more tokens than the
 * budget. Skipped when the server is not running, failed on CI.
 */
class BudgetTwoInstancesTests {

	private static final String REDIS_PREFIX = "agcore-test:budget:" + UUID.randomUUID() + ":";

	private static final String POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String TABLE_PREFIX = "bud_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	private static final long TOKENS_PER_DAY = 1000;

	private static final long OUTPUT_RESERVATION = 100;

	private final ScriptedChatModel model = ScriptedChatModel
		.answering((request) -> ScriptedChatModel.text("ok"));

	/** Every call of the agent 'metered' waits here until the test opens it, then reports 40 tokens. */
	private final GatedModel gated = new GatedModel(40);

	/** The buckets' clock stands still: no budget refills while the test runs. */
	private final TimeMeter frozen = new FrozenClock();

	private final ReactiveWebApplicationContextRunner instance = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AuditAutoConfiguration.class, BudgetAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model)
		.withBean("gated", ChatModel.class, () -> this.gated)
		.withBean(TimeMeter.class, () -> this.frozen)
		// the user a gateway authenticated: a principal, whose budget an anonymous body could not name
		.withBean(PrincipalResolver.class, () -> (exchange) -> Mono
			.justOrEmpty(exchange.getRequest().getHeaders().getFirst("X-User"))
			.map((user) -> AgentPrincipal.of(user)))
		.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.model=scripted",
				"agent.agents.assistant.budget.turns-per-minute=1", "agent.agents.metered.model=gated",
				"agent.agents.metered.budget.tokens-per-day=" + TOKENS_PER_DAY,
				"agent.budget.output-reservation=" + OUTPUT_RESERVATION);

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
	void redisBudgetHoldsFiftyConcurrentTurnsOnTwoInstancesToTheBudget() {
		LocalServices.require("Redis", 6379);
		ReactiveWebApplicationContextRunner onRedis = this.instance
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class, RedisMemoryAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379",
					"agent.memory.store=redis", "agent.memory.redis.key-prefix=" + REDIS_PREFIX,
					"agent.budget.redis-key-prefix=" + REDIS_PREFIX + "budget:");
		onRedis.run((first) -> onRedis.run((second) -> fiftyConcurrentTurnsStayWithinTheBudget(first, second)));
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

	@Test
	void jdbcBudgetHoldsFiftyConcurrentTurnsOnTwoInstancesToTheBudget() {
		LocalServices.require("PostgreSQL", 5432);
		ReactiveWebApplicationContextRunner onPostgres = this.instance
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					JdbcMemoryAutoConfiguration.class))
			.withPropertyValues("agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
					"agent.memory.jdbc.table-prefix=" + TABLE_PREFIX, "spring.datasource.url=" + POSTGRES_URL,
					"spring.datasource.username=postgres");
		onPostgres
			.run((first) -> onPostgres.run((second) -> fiftyConcurrentTurnsStayWithinTheBudget(first, second)));
	}

	/**
	 * 50 turns of one user, alternately on each instance, all in flight before any model
	 * call answers: only the reservations that fit are let through, each settles to the 40
	 * tokens its call used, and what was reserved but not used is back for the next turn.
	 */
	private void fiftyConcurrentTurnsStayWithinTheBudget(AssertableReactiveWebApplicationContext first,
			AssertableReactiveWebApplicationContext second) {
		assertThat(first.getBean(BudgetBuckets.class)).isInstanceOf(ProxyBudgetBuckets.class);
		String user = "user-" + UUID.randomUUID();
		List<Agent> instances = List.of(agent(first), agent(second));
		AtomicInteger refused = new AtomicInteger();
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		Mono<List<Boolean>> turns = Flux.range(0, 50)
			.flatMap((i) -> instances.get(i % 2)
				.invoke(new AgentRequest("s-" + UUID.randomUUID(), "hi", Map.of(), user))
				.contextWrite(Context.of(AgentPrincipal.CONTEXT_KEY, AgentPrincipal.of(user)))
				.map((result) -> Boolean.TRUE)
				.onErrorResume((ex) -> {
					if (ex instanceof BudgetExceededException) {
						refused.incrementAndGet();
					}
					else {
						failures.add(ex);
					}
					return Mono.just(Boolean.FALSE);
				}), 50)
			.collectList();
		Mono<Void> openWhenAllReservedOrRefused = Mono
			.fromRunnable(() -> await(() -> this.gated.calls() + refused.get() + failures.size() == 50,
					() -> this.gated.calls() + " calls, " + refused.get() + " refused, failures: " + failures))
			.then(Mono.fromRunnable(this.gated::open))
			// a thread of its own: a worker of boundedElastic would hold up the budget's calls queued on it
			.subscribeOn(Schedulers.newSingle("gate-opener", true))
			.then();

		List<Boolean> outcomes = Mono.zip(turns, openWhenAllReservedOrRefused.thenReturn(true))
			.map(Tuple2::getT1)
			.block(Duration.ofSeconds(60));

		assertThat(failures).isEmpty();
		ChatRequest sent = this.gated.requests().get(0);
		assertThat(sent.tools()).isEmpty();
		long reservation = TokenCounter.ESTIMATE.count(sent.messages()) + OUTPUT_RESERVATION;
		long succeeded = outcomes.stream().filter(Boolean::booleanValue).count();
		// every call reserved before any settled: exactly the reservations that fit went through
		assertThat(succeeded).isEqualTo(TOKENS_PER_DAY / reservation).isEqualTo(this.gated.calls());
		assertThat(refused.get()).isEqualTo(50 - (int) succeeded);
		long charged = TOKENS_PER_DAY - tokensLeft(first, user);
		assertThat(charged).isEqualTo(40 * succeeded).isLessThanOrEqualTo(TOKENS_PER_DAY + reservation);
		assertThat(tokensLeft(second, user)).isEqualTo(TOKENS_PER_DAY - charged);
		// the unused part of the reservations came back: the next turn fits again
		assertThat(agent(second).invoke(new AgentRequest("s-" + UUID.randomUUID(), "hi", Map.of(), user))
			.contextWrite(Context.of(AgentPrincipal.CONTEXT_KEY, AgentPrincipal.of(user)))
			.block(Duration.ofSeconds(10))
			.output()).isEqualTo("ok");
		assertThat(tokensLeft(first, user)).isEqualTo(TOKENS_PER_DAY - charged - 40);
	}

	private static Agent agent(AssertableReactiveWebApplicationContext context) {
		return context.getBean(AgentRegistry.class).find("metered").orElseThrow();
	}

	private static long tokensLeft(AssertableReactiveWebApplicationContext context, String user) {
		return context.getBean(BudgetBuckets.class)
			.bucket("metered:tokens_per_day:u:" + user,
					() -> BucketConfiguration.builder()
						.addLimit((limit) -> limit.capacity(TOKENS_PER_DAY)
							.refillIntervally(TOKENS_PER_DAY, Duration.ofDays(1)))
						.build())
			.getAvailableTokens();
	}

	private static void await(BooleanSupplier condition, Supplier<String> state) {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("The turns did not all reserve or get refused within 30 s: " + state.get());
			}
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError(ex);
			}
		}
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
			.header("X-User", user)
			.bodyValue(Map.of("sessionId", "s-" + UUID.randomUUID(), "message", "hi"))
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

	/** A model that holds every call until opened, then answers reporting a known usage. */
	private static final class GatedModel implements ChatModel {

		private final Sinks.Empty<Void> gate = Sinks.empty();

		private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

		private final long totalTokens;

		GatedModel(long totalTokens) {
			this.totalTokens = totalTokens;
		}

		@Override
		public Mono<ChatResponse> call(ChatRequest request) {
			return Mono.defer(() -> {
				this.requests.add(request);
				return this.gate.asMono()
					.then(Mono.fromSupplier(() -> new ChatResponse(AssistantMessage.of("ok"),
							new Usage(this.totalTokens - 10, 10, this.totalTokens), FinishReason.STOP, "gated")));
			});
		}

		@Override
		public Flux<ChatChunk> stream(ChatRequest request) {
			return call(request).flatMapIterable(ScriptedChatModel::chunks);
		}

		void open() {
			this.gate.tryEmitEmpty();
		}

		int calls() {
			return this.requests.size();
		}

		List<ChatRequest> requests() {
			return this.requests;
		}

	}

	/** A bucket4j clock that does not move. */
	private static final class FrozenClock implements TimeMeter {

		private final long nanos = System.currentTimeMillis() * 1_000_000L;

		@Override
		public long currentTimeNanos() {
			return this.nanos;
		}

		@Override
		public boolean isWallClockBased() {
			return true;
		}

	}

}
