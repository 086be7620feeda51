package dev.agcore.budget;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import dev.agcore.memory.window.TokenCounter;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A model call reserves its request's estimate plus its answer's limit before it is made,
 * is refused when that does not fit, and settles to what it used: concurrent turns never
 * reserve more than the budget, a failed call gives its reservation back, and a refused
 * turn gives its turn back.
 */
class BudgetReservationTests {

	private final ManualTimeMeter clock = new ManualTimeMeter();

	private final LocalBudgetBuckets buckets = new LocalBudgetBuckets(this.clock, 1000);

	@Test
	void callHoldsItsReservationWhileInFlightAndSettlesToItsUsage() {
		GatedChatModel model = GatedChatModel.open(30);
		AtomicLong leftDuringCall = new AtomicLong();
		model.onCall((request) -> leftDuringCall.set(tokensLeft("alice")));
		Agent agent = agent(model, new Budget(0, 1000, 0, BudgetScope.PRINCIPAL), 200);

		agent.call(request("s1", "alice"));

		assertThat(leftDuringCall.get()).isEqualTo(1000 - inputOf(model) - 200);
		// the unused part of the reservation came back
		assertThat(tokensLeft("alice")).isEqualTo(1000 - 30);
	}

	@Test
	void requestsMaxTokensIsWhatItsAnswerReserves() {
		GatedChatModel model = GatedChatModel.open(30);
		AtomicLong leftDuringCall = new AtomicLong();
		model.onCall((request) -> leftDuringCall.set(tokensLeft("alice")));
		Agent agent = agent(model, new Budget(0, 1000, 0, BudgetScope.PRINCIPAL), 200);

		agent.call(request("s1", "alice").withOptions(ChatOptions.builder().maxTokens(50).build()));

		assertThat(leftDuringCall.get()).isEqualTo(1000 - inputOf(model) - 50);
		assertThat(tokensLeft("alice")).isEqualTo(1000 - 30);
	}

	@Test
	void callWhoseReservationDoesNotFitIsRefusedThoughTokensAreLeftAndTheTurnIsGivenBack() {
		GatedChatModel model = GatedChatModel.open(150);
		Agent agent = agent(model, new Budget(2, 300, 0, BudgetScope.PRINCIPAL), 200);
		agent.call(request("s1", "alice"));

		BudgetExceededException refused = refused(agent, request("s2", "alice"));

		assertThat(refused.limit()).isEqualTo(Budget.Limit.TOKENS_PER_DAY);
		assertThat(refused.getMessage()).contains("300 tokens per day for this user has 150 left",
				"reserves " + (inputOf(model) + 200) + " tokens", "try again in");
		assertThat(refused.retryAfter()).isGreaterThan(Duration.ofHours(23));
		assertThat(model.requests()).hasSize(1);
		assertThat(tokensLeft("alice")).isEqualTo(150);
		// the refused turn never reached the model: only the first turn counts
		assertThat(this.buckets.bucket("budgeted:turns_per_minute:u:alice",
				() -> Budget.configuration(Budget.Limit.TURNS_PER_MINUTE, 2))
			.getAvailableTokens()).isEqualTo(1);
	}

	@Test
	void reservationLargerThanTheWholeBudgetIsRefusedSayingWhatToChange() {
		GatedChatModel model = GatedChatModel.open(10);
		Agent agent = agent(model, new Budget(0, 100, 0, BudgetScope.PRINCIPAL), 200);

		BudgetExceededException refused = refused(agent, request("s1", "alice"));

		assertThat(refused.getMessage()).contains("100 tokens per day for this user is smaller than",
				"max-tokens", "agent.budget.output-reservation");
		assertThat(model.requests()).isEmpty();
		assertThat(tokensLeft("alice")).isEqualTo(100);
	}

	@Test
	void failedCallGivesItsReservationBack() {
		ChatModel failing = ScriptedChatModel.answering((request) -> {
			throw new IllegalStateException("The provider is down");
		});
		Agent agent = agent(failing, new Budget(0, 1000, 0, BudgetScope.PRINCIPAL), 200);

		assertThatIllegalStateException().isThrownBy(() -> agent.call(request("s1", "alice")));

		assertThat(tokensLeft("alice")).isEqualTo(1000);
	}

	@Test
	void cancelledCallKeepsOnlyTheEstimateOfItsRequest() {
		GatedChatModel model = new GatedChatModel(30);
		Agent agent = agent(model, new Budget(0, 1000, 0, BudgetScope.PRINCIPAL), 200);

		Disposable turn = agent.invoke(request("s1", "alice")).subscribe((result) -> {
		}, (error) -> {
		});
		await(() -> model.requests().size() == 1);
		long input = inputOf(model);
		assertThat(tokensLeft("alice")).isEqualTo(1000 - input - 200);
		turn.dispose();

		await(() -> tokensLeft("alice") == 1000 - input);
	}

	@Test
	void fiftyConcurrentTurnsNeverReserveMoreThanTheBudget() {
		GatedChatModel model = new GatedChatModel(40);
		Agent agent = agent(model, new Budget(0, 1000, 0, BudgetScope.PRINCIPAL), 94);
		AtomicInteger refused = new AtomicInteger();

		List<Integer> outcomes = Flux.range(0, 50)
			.flatMap((i) -> agent.invoke(request("s" + i, "alice"))
				.map((result) -> 1)
				.onErrorResume(BudgetExceededException.class, (ex) -> {
					refused.incrementAndGet();
					return Mono.just(0);
				}), 50)
			.collectList()
			.doOnSubscribe((subscription) -> Mono.fromRunnable(() -> {
				// every turn has reserved or been refused before any answers
				await(() -> model.requests().size() + refused.get() == 50);
				model.open();
			}).subscribeOn(Schedulers.newSingle("gate-opener", true)).subscribe())
			.block(Duration.ofSeconds(30));

		long reservation = inputOf(model) + 94;
		int succeeded = (int) outcomes.stream().filter((outcome) -> outcome == 1).count();
		assertThat(succeeded).isEqualTo((int) (1000 / reservation)).isEqualTo(model.requests().size());
		assertThat(refused.get()).isEqualTo(50 - succeeded);
		long charged = 1000 - tokensLeft("alice");
		assertThat(charged).isEqualTo(40L * succeeded).isLessThanOrEqualTo(1000 + reservation);
	}

	@Test
	void usedUpBudgetOutlivesThePressureOfManyNewKeysInTheInMemoryStore() {
		LocalBudgetBuckets small = new LocalBudgetBuckets(this.clock, 20);
		GatedChatModel model = GatedChatModel.open(500);
		Agent agent = Agent.builder()
			.name("budgeted")
			.model(model)
			.middleware(BudgetMiddleware.builder(new Budget(0, 400, 0, BudgetScope.PRINCIPAL), small)
				.outputReservation(10)
				.build())
			.build();
		agent.call(request("s1", "alice"));
		model.onCall((request) -> {
			throw new IllegalStateException("The provider is down");
		});

		// 500 other principals whose calls fail and give their reservations back: their
		// buckets are full again, and only those make room
		for (int i = 0; i < 500; i++) {
			AgentRequest other = request("s1", "user-" + i);
			assertThatIllegalStateException().isThrownBy(() -> agent.call(other));
		}

		assertThat(small.size()).isLessThanOrEqualTo(20);
		assertThat(refused(agent, request("s1", "alice")).getMessage()).contains("is used up");
	}

	@Test
	void inMemoryStoreFullOfBudgetsStillInUseRefusesNewPrincipals() {
		LocalBudgetBuckets small = new LocalBudgetBuckets(this.clock, 3);
		GatedChatModel model = GatedChatModel.open(50);
		Agent agent = Agent.builder()
			.name("budgeted")
			.model(model)
			.middleware(BudgetMiddleware.builder(new Budget(0, 400, 0, BudgetScope.PRINCIPAL), small)
				.outputReservation(10)
				.build())
			.build();
		for (String user : List.of("alice", "bob", "carol")) {
			agent.call(request("s1", user));
		}

		BudgetExceededException refused = refused(agent, request("s1", "dave"));

		assertThat(refused.getMessage()).contains("agent.budget.max-buckets");
		assertThat(refused.retryAfter()).isEqualTo(Duration.ofMinutes(1));
		this.clock.advance(Duration.ofDays(1));
		assertThat(agent.call(request("s1", "dave")).output()).isEqualTo("ok");
	}

	private Agent agent(ChatModel model, Budget budget, long outputReservation) {
		return Agent.builder()
			.name("budgeted")
			.model(model)
			.middleware(BudgetMiddleware.builder(budget, this.buckets).outputReservation(outputReservation).build())
			.build();
	}

	private long tokensLeft(String user) {
		return this.buckets.bucket("budgeted:tokens_per_day:u:" + user,
				() -> Budget.configuration(Budget.Limit.TOKENS_PER_DAY, 1)).getAvailableTokens();
	}

	private static long inputOf(GatedChatModel model) {
		return TokenCounter.ESTIMATE.count(model.requests().get(0).messages());
	}

	private static AgentRequest request(String session, String user) {
		return new AgentRequest(session, "hello", Map.of(), user);
	}

	private static BudgetExceededException refused(Agent agent, AgentRequest request) {
		return assertThatExceptionOfType(BudgetExceededException.class).isThrownBy(() -> agent.call(request))
			.actual();
	}

	private static void await(BooleanSupplier condition) {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Condition not met within 10 s");
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError(ex);
			}
		}
	}

}
