package dev.agcore.budget;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.message.Message;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.Usage;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Enforces an agent's {@link Budget} before the model is called: a turn starts only if its
 * principal (or session) has a turn left this minute and tokens left today and this
 * month; each model call is made only while tokens are left, and its {@link Usage} is
 * charged once it answered, so a call may end in debt that later turns wait off. A refused
 * turn or call costs nothing and fails with a {@link BudgetExceededException} saying when
 * to retry; each refusal increments {@code agent.budget.exceeded} (tags {@code agent},
 * {@code limit}) and is published as an {@link AuditEvent.Kind#BUDGET_EXCEEDED} event.
 * <p>
 * Put it first among an agent's middleware, so a refusal comes before any other work.
 * <pre>
 * agent.middleware(BudgetMiddleware.builder(new Budget(10, 200_000, 0, BudgetScope.PRINCIPAL),
 *         new LocalBudgetBuckets()).build());
 * </pre>
 *
 * @since 0.1.0
 */
public final class BudgetMiddleware implements AgentMiddleware {

	/** The counter of refusals. */
	public static final String EXCEEDED_METER = "agent.budget.exceeded";

	/** Set by the turn's start when it checked the tokens, so its first model call need not. */
	private static final String TOKENS_CHECKED = BudgetMiddleware.class.getName() + ".tokensChecked";

	private final Budget budget;

	private final BudgetBuckets buckets;

	private final @Nullable MeterRegistry meterRegistry;

	private final Auditor auditor;

	private BudgetMiddleware(Builder builder) {
		this.budget = builder.budget;
		this.buckets = builder.buckets;
		this.meterRegistry = builder.meterRegistry;
		this.auditor = builder.auditor;
	}

	/**
	 * Start a budget middleware.
	 * @param budget the limits, at least one of them set
	 * @param buckets where the counts are kept
	 * @return the builder
	 */
	public static Builder builder(Budget budget, BudgetBuckets buckets) {
		return new Builder(budget, buckets);
	}

	public Budget budget() {
		return this.budget;
	}

	@Override
	public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
		return run(() -> {
			checkTokens(context);
			context.attributes().put(TOKENS_CHECKED, Boolean.TRUE);
			if (this.budget.turnsPerMinute() > 0) {
				ConsumptionProbe probe = bucket(context, Budget.Limit.TURNS_PER_MINUTE, this.budget.turnsPerMinute())
					.tryConsumeAndReturnRemaining(1);
				if (!probe.isConsumed()) {
					throw refuse(context, Budget.Limit.TURNS_PER_MINUTE, this.budget.turnsPerMinute(),
							probe.getNanosToWaitForRefill());
				}
			}
			return null;
		}).then();
	}

	@Override
	public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		return run(() -> {
			// a turn's first call was checked when the turn started; a resumed turn's was not
			if (context.attributes().remove(TOKENS_CHECKED) == null) {
				checkTokens(context);
			}
			return Boolean.TRUE;
		}).then(next.call(request)).flatMap((response) -> charge(context, response.usage()).thenReturn(response));
	}

	private Mono<Void> charge(AgentContext context, Usage usage) {
		long tokens = tokens(usage);
		if (tokens <= 0 || (this.budget.tokensPerDay() == 0 && this.budget.tokensPerMonth() == 0)) {
			return Mono.empty();
		}
		return run(() -> {
			// spent already: charged even beyond the limit, which later turns then wait off
			if (this.budget.tokensPerDay() > 0) {
				bucket(context, Budget.Limit.TOKENS_PER_DAY, this.budget.tokensPerDay())
					.consumeIgnoringRateLimits(tokens);
			}
			if (this.budget.tokensPerMonth() > 0) {
				bucket(context, Budget.Limit.TOKENS_PER_MONTH, this.budget.tokensPerMonth())
					.consumeIgnoringRateLimits(tokens);
			}
			return null;
		}).then();
	}

	private static long tokens(Usage usage) {
		long total = usage.totalTokens();
		return (total > 0) ? total : usage.inputTokens() + usage.outputTokens();
	}

	private void checkTokens(AgentContext context) {
		checkTokens(context, Budget.Limit.TOKENS_PER_DAY, this.budget.tokensPerDay());
		checkTokens(context, Budget.Limit.TOKENS_PER_MONTH, this.budget.tokensPerMonth());
	}

	private void checkTokens(AgentContext context, Budget.Limit limit, long amount) {
		if (amount == 0) {
			return;
		}
		EstimationProbe probe = bucket(context, limit, amount).estimateAbilityToConsume(1);
		if (!probe.canBeConsumed()) {
			throw refuse(context, limit, amount, probe.getNanosToWaitForRefill());
		}
	}

	private Bucket bucket(AgentContext context, Budget.Limit limit, long amount) {
		return this.buckets.bucket(key(context, limit), () -> Budget.configuration(limit, amount));
	}

	/** The bucket's key: the agent, the limit, then the principal, or the session when anonymous. */
	String key(AgentContext context, Budget.Limit limit) {
		String user = context.userId();
		String owner = (this.budget.scope() == BudgetScope.PRINCIPAL && user != null) ? "u:" + user
				: "s:" + context.sessionId();
		return context.agentName() + ":" + limit.tag() + ":" + owner;
	}

	private BudgetExceededException refuse(AgentContext context, Budget.Limit limit, long amount, long waitNanos) {
		// whole seconds, at least one: what a Retry-After header can say
		Duration retryAfter = Duration.ofSeconds(Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L));
		if (this.meterRegistry != null) {
			Counter.builder(EXCEEDED_METER)
				.description("Turns and model calls refused by a budget")
				.tag("agent", context.agentName())
				.tag("limit", limit.tag())
				.register(this.meterRegistry)
				.increment();
		}
		this.auditor.publish(AuditEvent.Kind.BUDGET_EXCEEDED, context.agentName(), context.sessionId(),
				context.userId(), null, null, "", UnaryOperator.identity(), limit.tag(), "");
		String whose = (this.budget.scope() == BudgetScope.PRINCIPAL && context.userId() != null) ? "user"
				: "session";
		return new BudgetExceededException("Agent '" + context.agentName() + "' refused the turn: the budget of "
				+ amount + " " + limit.description() + " for this " + whose + " is used up; try again in "
				+ describe(retryAfter), limit, retryAfter);
	}

	private static String describe(Duration wait) {
		long seconds = wait.toSeconds();
		if (seconds < 120) {
			return seconds + " s";
		}
		if (seconds < 2 * 3600) {
			return (seconds + 59) / 60 + " min";
		}
		return (seconds + 3599) / 3600 + " h";
	}

	/** Bucket calls wait for Redis or the database: never on an event loop. */
	private <T> Mono<T> run(Callable<@Nullable T> work) {
		Mono<T> call = Mono.fromCallable(work);
		return this.buckets.blocking() ? call.subscribeOn(Schedulers.boundedElastic()) : call;
	}

	@Override
	public String toString() {
		return "BudgetMiddleware[" + this.budget + "]";
	}

	/**
	 * Builds a {@link BudgetMiddleware}.
	 */
	public static final class Builder {

		private final Budget budget;

		private final BudgetBuckets buckets;

		private @Nullable MeterRegistry meterRegistry;

		private Auditor auditor = Auditor.NONE;

		private Builder(Budget budget, BudgetBuckets buckets) {
			this.budget = Objects.requireNonNull(budget, "'budget' must not be null");
			this.buckets = Objects.requireNonNull(buckets, "'buckets' must not be null");
			if (!budget.limits()) {
				throw new IllegalArgumentException("The budget sets no limit: set turnsPerMinute, tokensPerDay "
						+ "or tokensPerMonth");
			}
		}

		/**
		 * Count refusals in {@value BudgetMiddleware#EXCEEDED_METER}.
		 * @param meterRegistry the registry, or {@code null} for none
		 * @return this builder
		 */
		public Builder meterRegistry(@Nullable MeterRegistry meterRegistry) {
			this.meterRegistry = meterRegistry;
			return this;
		}

		/**
		 * Publish refusals to the audit trail.
		 * @param auditor the auditor
		 * @return this builder
		 */
		public Builder auditor(Auditor auditor) {
			this.auditor = Objects.requireNonNull(auditor, "'auditor' must not be null");
			return this;
		}

		public BudgetMiddleware build() {
			return new BudgetMiddleware(this);
		}

	}

}
