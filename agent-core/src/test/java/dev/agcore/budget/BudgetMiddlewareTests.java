package dev.agcore.budget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.message.AssistantMessage;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.TurnFailure;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Budgets refuse a turn before the model is called once a principal's turns or tokens are
 * used up, say when to retry, and let turns through again once the window passed.
 */
class BudgetMiddlewareTests {

	private final ManualTimeMeter clock = new ManualTimeMeter();

	private final LocalBudgetBuckets buckets = new LocalBudgetBuckets(this.clock, 1000);

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final List<AuditEvent> audited = new ArrayList<>();

	/** Answers every call with the given number of tokens used. */
	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> new ChatResponse(
			AssistantMessage.of("ok"), new Usage(60, 20, 80), FinishReason.STOP, "scripted"));

	@Test
	void turnsPerMinuteRefuseTheTurnBeforeTheModelIsCalledAndRecoverAfterTheWindow() {
		Agent agent = agent(new Budget(2, 0, 0, BudgetScope.PRINCIPAL));

		agent.call(request("s1", "alice"));
		agent.call(request("s2", "alice"));
		BudgetExceededException refused = refused(agent, request("s3", "alice"));

		assertThat(refused.limit()).isEqualTo(Budget.Limit.TURNS_PER_MINUTE);
		assertThat(refused.errorCode()).isEqualTo("budget_exceeded");
		assertThat(refused.retryAfter()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
		assertThat(refused.getMessage()).contains("2 turns per minute", "for this user", "try again in");
		assertThat(this.model.requests()).hasSize(2);
		assertThat(TurnFailure.of(refused).code()).isEqualTo(BudgetExceededException.CODE);

		// another principal has its own budget
		agent.call(request("s4", "bob"));
		this.clock.advance(refused.retryAfter());
		assertThat(agent.call(request("s3", "alice")).output()).isEqualTo("ok");
		assertThat(this.model.requests()).hasSize(4);
	}

	@Test
	void tokensPerDayAreChargedFromUsageAndRefuseOnceSpentUntilTheDayIsOver() {
		Agent agent = agent(new Budget(0, 120, 0, BudgetScope.PRINCIPAL));

		agent.call(request("s1", "alice"));
		// 40 tokens were left, enough for the call's reservation of 27 (17 for the
		// conversation, 10 for the answer); it used 80, more than it reserved, and ends 40
		// in debt
		agent.call(request("s1", "alice"));
		BudgetExceededException refused = refused(agent, request("s1", "alice"));

		assertThat(refused.limit()).isEqualTo(Budget.Limit.TOKENS_PER_DAY);
		assertThat(refused.retryAfter()).isGreaterThan(Duration.ofHours(23));
		assertThat(this.model.requests()).hasSize(2);
		this.clock.advance(Duration.ofDays(1));
		assertThat(agent.call(request("s1", "alice")).output()).isEqualTo("ok");
	}

	@Test
	void tokensPerMonthHoldAcrossDays() {
		Agent agent = agent(new Budget(0, 0, 150, BudgetScope.PRINCIPAL));

		agent.call(request("s1", "alice"));
		agent.call(request("s1", "alice"));
		this.clock.advance(Duration.ofDays(2));

		assertThat(refused(agent, request("s1", "alice")).limit()).isEqualTo(Budget.Limit.TOKENS_PER_MONTH);
		this.clock.advance(Duration.ofDays(28));
		assertThat(agent.call(request("s1", "alice")).output()).isEqualTo("ok");
	}

	@Test
	void anonymousTurnsAreBudgetedPerSession() {
		Agent agent = agent(new Budget(1, 0, 0, BudgetScope.PRINCIPAL));

		agent.call(request("s1", null));
		agent.call(request("s2", null));

		assertThat(refused(agent, request("s1", null)).getMessage()).contains("for this session");
	}

	@Test
	void sessionScopeCountsEachSessionOfAPrincipalApart() {
		Agent agent = agent(new Budget(1, 0, 0, BudgetScope.SESSION));

		agent.call(request("s1", "alice"));
		agent.call(request("s2", "alice"));

		assertThat(refused(agent, request("s1", "alice")).limit()).isEqualTo(Budget.Limit.TURNS_PER_MINUTE);
	}

	@Test
	void refusalIsCountedByAgentAndLimitAndAudited() {
		Agent agent = agent(new Budget(1, 0, 0, BudgetScope.PRINCIPAL));
		agent.call(request("s1", "alice"));

		refused(agent, request("s1", "alice"));

		assertThat(this.meters.get(BudgetMiddleware.EXCEEDED_METER)
			.tag("agent", "budgeted")
			.tag("limit", "turns_per_minute")
			.counter()
			.count()).isEqualTo(1);
		assertThat(this.meters.get(BudgetMiddleware.EXCEEDED_METER).meter().getId().getTags())
			.noneMatch((tag) -> tag.getValue().contains("alice"));
		assertThat(this.audited).singleElement().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.BUDGET_EXCEEDED);
			assertThat(event.userId()).isEqualTo("alice");
			assertThat(event.sessionId()).isEqualTo("s1");
			assertThat(event.outcome()).isEqualTo("turns_per_minute");
		});
	}

	@Test
	void streamedTurnRefusedEndsWithAFailedEventCarryingTheException() {
		Agent agent = agent(new Budget(1, 0, 0, BudgetScope.PRINCIPAL));
		agent.call(request("s1", "alice"));

		StepVerifier.create(agent.stream(request("s1", "alice")))
			.assertNext((event) -> assertThat(event).isInstanceOfSatisfying(AgentEvent.Failed.class,
					(failed) -> assertThat(failed.cause()).isInstanceOf(BudgetExceededException.class)))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.model.requests()).hasSize(1);
	}

	@Test
	void budgetWithoutLimitIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BudgetMiddleware.builder(new Budget(0, 0, 0, BudgetScope.SESSION), this.buckets))
			.withMessageContaining("no limit");
	}

	private Agent agent(Budget budget) {
		return Agent.builder()
			.name("budgeted")
			.model(this.model)
			.middleware(BudgetMiddleware.builder(budget, this.buckets)
				.outputReservation(10)
				.meterRegistry(this.meters)
				.auditor(Auditor.of(this.audited::add))
				.build())
			.build();
	}

	private static AgentRequest request(String session, String user) {
		return new AgentRequest(session, "hello", Map.of(), user);
	}

	private static BudgetExceededException refused(Agent agent, AgentRequest request) {
		return assertThatExceptionOfType(BudgetExceededException.class).isThrownBy(() -> agent.call(request))
			.actual();
	}

}
