package dev.agcore.budget.redis;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.agcore.budget.Budget;
import dev.agcore.budget.BudgetBuckets;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.budget.BudgetMiddleware;
import dev.agcore.budget.BudgetScope;
import dev.agcore.budget.ManualTimeMeter;
import dev.agcore.memory.ServiceAvailability;
import dev.agcore.message.AssistantMessage;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A budget in Redis holds for every instance: two agents on two connections, as two
 * application instances would have, count against the same keys.
 */
class RedisBudgetBucketsTests {

	private final ManualTimeMeter clock = new ManualTimeMeter();

	private final String prefix = "test:budget:" + UUID.randomUUID() + ":";

	private RedisClient client;

	@BeforeEach
	void connect() {
		ServiceAvailability.require("Redis", "127.0.0.1", 6379);
		this.client = RedisClient.create("redis://127.0.0.1:6379");
	}

	@AfterEach
	void disconnect() {
		if (this.client != null) {
			try (StatefulRedisConnection<String, String> connection = this.client.connect()) {
				connection.sync().keys(this.prefix + "*").forEach((key) -> connection.sync().del(key));
			}
			this.client.shutdown();
		}
	}

	@Test
	void tokensChargedThroughOneInstanceRefuseTurnsOfAnotherUntilTheDayIsOver() {
		Budget budget = new Budget(0, 100, 0, BudgetScope.PRINCIPAL);
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> new ChatResponse(AssistantMessage.of("ok"),
				new Usage(90, 30, 120), FinishReason.STOP, "scripted"));
		Agent first = agent(model, budget, buckets());
		Agent second = agent(model, budget, buckets());

		// the call reserved 16 tokens (6 for the request, 10 for the answer) and used 120
		first.call(request("s1"));
		BudgetExceededException refused = assertThatExceptionOfType(BudgetExceededException.class)
			.isThrownBy(() -> second.call(request("s2")))
			.actual();

		assertThat(refused.limit()).isEqualTo(Budget.Limit.TOKENS_PER_DAY);
		assertThat(model.requests()).hasSize(1);
		this.clock.advance(Duration.ofDays(1));
		assertThat(second.call(request("s2")).output()).isEqualTo("ok");
	}

	private BudgetBuckets buckets() {
		StatefulRedisConnection<String, byte[]> connection = this.client
			.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		return RedisBudgetBuckets.of(connection, this.prefix, this.clock);
	}

	private static Agent agent(ScriptedChatModel model, Budget budget, BudgetBuckets buckets) {
		return Agent.builder()
			.name("budgeted")
			.model(model)
			.middleware(BudgetMiddleware.builder(budget, buckets).outputReservation(10).build())
			.build();
	}

	private static AgentRequest request(String session) {
		return new AgentRequest(session, "hello", Map.of(), "alice");
	}

}
