package dev.agcore.budget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.memory.window.TokenCounter;
import dev.agcore.message.Message;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Enforces an agent's {@link Budget} before the model is called.
 * <p>
 * A turn starts only if its principal (or session) has tokens left and takes one turn of
 * the minute ({@code tryConsume(1)}, atomic in every store). Each model call then
 * <em>reserves</em> its tokens before it is made: the estimate of its request (messages
 * and tool definitions, counted by the {@link TokenCounter}) plus the most it may answer
 * (the request's {@code maxTokens}, or the {@linkplain Builder#outputReservation output
 * reservation} when it sets none). The call is refused unless the whole reservation fits
 * in every token limit. Once the model answered, the reservation is <em>settled</em> to
 * the {@link Usage} it reported: the unused part is given back, and a call that used more
 * than it reserved is charged the rest, which may leave the budget in debt that later
 * calls wait off. A call that fails gives its whole reservation back (the provider bills
 * no failed request); a cancelled one keeps the estimate of its request, which the
 * provider received. A turn that the budget refuses before its first model call gives its
 * turn back, so a refused turn costs nothing.
 * <p>
 * Since each reservation is one atomic operation that takes tokens only when they are
 * all there, concurrent calls, on one instance or many sharing Redis or a database, never
 * together reserve more than the budget: what is charged beyond it is only what calls
 * used beyond their own reservations.
 * <p>
 * Each refusal fails with a {@link BudgetExceededException} saying when to retry,
 * increments {@code agent.budget.exceeded} (tags {@code agent}, {@code limit}) and is
 * published as an {@link AuditEvent.Kind#BUDGET_EXCEEDED} event. Put it first among an
 * agent's middleware, so a refusal comes before any other work.
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

	/** The tokens reserved for a call's answer when its request sets no {@code maxTokens}. */
	public static final long DEFAULT_OUTPUT_RESERVATION = 4096;

	/** Set by the turn's start to the key of the turn it took, until its first model call is let through. */
	private static final String TURN_TAKEN = BudgetMiddleware.class.getName() + ".turnTaken";

	/** How long a caller refused because the in-memory store is full should wait. */
	private static final long FULL_STORE_WAIT_NANOS = Budget.MINUTE.toNanos();

	private final Budget budget;

	private final BudgetBuckets buckets;

	private final @Nullable MeterRegistry meterRegistry;

	private final Auditor auditor;

	private final TokenCounter tokenCounter;

	private final long outputReservation;

	private BudgetMiddleware(Builder builder) {
		this.budget = builder.budget;
		this.buckets = builder.buckets;
		this.meterRegistry = builder.meterRegistry;
		this.auditor = builder.auditor;
		this.tokenCounter = builder.tokenCounter;
		this.outputReservation = builder.outputReservation;
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

	/**
	 * Return the tokens reserved for a call's answer when its request sets no
	 * {@code maxTokens}.
	 * @return the output reservation
	 */
	public long outputReservation() {
		return this.outputReservation;
	}

	@Override
	public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
		return run(() -> {
			// a used-up budget refuses before the turn takes one of the minute
			checkTokensLeft(context, Budget.Limit.TOKENS_PER_DAY, this.budget.tokensPerDay());
			checkTokensLeft(context, Budget.Limit.TOKENS_PER_MONTH, this.budget.tokensPerMonth());
			if (this.budget.turnsPerMinute() > 0) {
				String key = key(context, Budget.Limit.TURNS_PER_MINUTE);
				ConsumptionProbe probe = bucket(context, key, Budget.Limit.TURNS_PER_MINUTE,
						this.budget.turnsPerMinute())
					.tryConsumeAndReturnRemaining(1);
				if (!probe.isConsumed()) {
					throw refuse(context, Budget.Limit.TURNS_PER_MINUTE, probe.getNanosToWaitForRefill(),
							usedUp(context, Budget.Limit.TURNS_PER_MINUTE, this.budget.turnsPerMinute()));
				}
				context.attributes().put(TURN_TAKEN, key);
			}
			return null;
		}).then();
	}

	@Override
	public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		if (!this.budget.limitsTokens()) {
			return next.call(request);
		}
		long input = estimate(request);
		Integer maxTokens = request.options().maxTokens();
		long output = (maxTokens != null) ? maxTokens : this.outputReservation;
		return Mono.usingWhen(run(() -> reserve(context, input, output)),
				(reservation) -> next.call(request)
					.doOnNext((response) -> reservation.used(used(reservation, response))),
				(reservation) -> run(() -> {
					long used = reservation.used();
					reservation.settle((used >= 0) ? used : reservation.inputEstimate());
					return null;
				}), (reservation, error) -> run(() -> {
					reservation.settle(0);
					return null;
				}), (reservation) -> run(() -> {
					reservation.settle(reservation.inputEstimate());
					return null;
				}));
	}

	/** What a call used: its usage as reported, or the estimates of its request and answer when it reported none. */
	private long used(TokenReservation reservation, ChatResponse response) {
		Usage usage = response.usage();
		long total = usage.totalTokens();
		long reported = (total > 0) ? total : usage.inputTokens() + usage.outputTokens();
		return (reported > 0) ? reported : reservation.inputEstimate() + this.tokenCounter.count(response.message());
	}

	/** The request's tokens: its messages, and its tools' names, descriptions and schemas. */
	long estimate(ChatRequest request) {
		long tokens = this.tokenCounter.count(request.messages());
		for (ToolSpec tool : request.tools()) {
			long chars = tool.name().length() + tool.description().length() + tool.inputSchema().toString().length();
			tokens += 4 + (chars + 3) / 4;
		}
		return tokens;
	}

	private TokenReservation reserve(AgentContext context, long input, long output) {
		Object turn = context.attributes().remove(TURN_TAKEN);
		try {
			return reserveTokens(context, input, output);
		}
		catch (BudgetExceededException ex) {
			if (turn instanceof String key) {
				// the turn never reached the model: it costs nothing
				bucket(context, key, Budget.Limit.TURNS_PER_MINUTE, this.budget.turnsPerMinute()).addTokens(1);
			}
			throw ex;
		}
	}

	private TokenReservation reserveTokens(AgentContext context, long input, long output) {
		long tokens = input + output;
		List<Bucket> held = new ArrayList<>(2);
		try {
			reserveIn(context, Budget.Limit.TOKENS_PER_DAY, this.budget.tokensPerDay(), tokens, input, output, held);
			reserveIn(context, Budget.Limit.TOKENS_PER_MONTH, this.budget.tokensPerMonth(), tokens, input, output,
					held);
		}
		catch (RuntimeException ex) {
			// all or nothing: the day's tokens go back when the month refuses
			for (Bucket bucket : held) {
				bucket.addTokens(tokens);
			}
			throw ex;
		}
		return new TokenReservation(held, tokens, input);
	}

	private void reserveIn(AgentContext context, Budget.Limit limit, long amount, long tokens, long input,
			long output, List<Bucket> held) {
		if (amount == 0) {
			return;
		}
		String why = " the model call reserves " + tokens + " tokens (" + input + " estimated for the request, "
				+ output + " for the answer)";
		if (tokens > amount) {
			throw refuse(context, limit, limit.period().toNanos(), "the budget of " + amount + " "
					+ limit.description() + " for this " + whose(context) + " is smaller than" + why
					+ ": lower the request's max-tokens (or agent.budget.output-reservation), shorten the "
					+ "conversation, or raise the budget");
		}
		Bucket bucket = bucket(context, key(context, limit), limit, amount);
		ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(tokens);
		if (!probe.isConsumed()) {
			String left = (probe.getRemainingTokens() > 0) ? "has " + probe.getRemainingTokens() + " left, but"
					: "is used up, and";
			throw refuse(context, limit, probe.getNanosToWaitForRefill(),
					"the budget of " + amount + " " + limit.description() + " for this " + whose(context) + " "
							+ left + why);
		}
		held.add(bucket);
	}

	private void checkTokensLeft(AgentContext context, Budget.Limit limit, long amount) {
		if (amount == 0) {
			return;
		}
		EstimationProbe probe = bucket(context, key(context, limit), limit, amount).estimateAbilityToConsume(1);
		if (!probe.canBeConsumed()) {
			throw refuse(context, limit, probe.getNanosToWaitForRefill(), usedUp(context, limit, amount));
		}
	}

	private String usedUp(AgentContext context, Budget.Limit limit, long amount) {
		return "the budget of " + amount + " " + limit.description() + " for this " + whose(context)
				+ " is used up";
	}

	private Bucket bucket(AgentContext context, String key, Budget.Limit limit, long amount) {
		try {
			return this.buckets.bucket(key, () -> Budget.configuration(limit, amount));
		}
		catch (BudgetBucketsFullException ex) {
			// fail closed: a principal that cannot be counted is not let through uncounted
			throw refuse(context, limit, FULL_STORE_WAIT_NANOS, ex.getMessage()
					+ "; raise agent.budget.max-buckets, or count budgets in Redis or the database "
					+ "(agent.budget.store)");
		}
	}

	/** The bucket's key: the agent, the limit, then the principal, or the session when anonymous. */
	String key(AgentContext context, Budget.Limit limit) {
		String user = context.userId();
		String owner = (this.budget.scope() == BudgetScope.PRINCIPAL && user != null) ? "u:" + user
				: "s:" + context.sessionId();
		return context.agentName() + ":" + limit.tag() + ":" + owner;
	}

	private String whose(AgentContext context) {
		return (this.budget.scope() == BudgetScope.PRINCIPAL && context.userId() != null) ? "user" : "session";
	}

	private BudgetExceededException refuse(AgentContext context, Budget.Limit limit, long waitNanos, String why) {
		// whole seconds, at least one: what a Retry-After header can say
		long seconds = (waitNanos >= Long.MAX_VALUE - 999_999_999L) ? limit.period().toSeconds()
				: (waitNanos + 999_999_999L) / 1_000_000_000L;
		Duration retryAfter = Duration.ofSeconds(Math.max(1, seconds));
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
		return new BudgetExceededException("Agent '" + context.agentName() + "' refused the turn: " + why
				+ "; try again in " + describe(retryAfter), limit, retryAfter);
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

		private TokenCounter tokenCounter = TokenCounter.ESTIMATE;

		private long outputReservation = DEFAULT_OUTPUT_RESERVATION;

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

		/**
		 * Count the tokens of a request's messages with this counter, such as the
		 * model's own tokenizer ({@link TokenCounter#forModel(String)}); by default
		 * {@link TokenCounter#ESTIMATE}. A counter that counts low lets calls use more
		 * than they reserved.
		 * @param tokenCounter the counter
		 * @return this builder
		 */
		public Builder tokenCounter(TokenCounter tokenCounter) {
			this.tokenCounter = Objects.requireNonNull(tokenCounter, "'tokenCounter' must not be null");
			return this;
		}

		/**
		 * Reserve this many tokens for the answer of a call whose request sets no
		 * {@code maxTokens}; by default {@value BudgetMiddleware#DEFAULT_OUTPUT_RESERVATION}.
		 * Set it to at least the model's own {@code max-tokens}, so a call cannot answer
		 * more than it reserved.
		 * @param outputReservation the tokens, at least 1
		 * @return this builder
		 */
		public Builder outputReservation(long outputReservation) {
			if (outputReservation < 1) {
				throw new IllegalArgumentException(
						"'outputReservation' must be at least 1, was " + outputReservation);
			}
			this.outputReservation = outputReservation;
			return this;
		}

		public BudgetMiddleware build() {
			return new BudgetMiddleware(this);
		}

	}

}
