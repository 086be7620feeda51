package dev.agcore.budget;

import java.time.Duration;
import java.util.Objects;

import io.github.bucket4j.BucketConfiguration;

/**
 * The limits of one agent's budget. A limit of 0 is no limit.
 *
 * @param turnsPerMinute the most turns started per minute (refilled smoothly)
 * @param tokensPerDay the most model tokens (input and output) per day, counted from the
 * first use: the whole day's budget comes back a day after
 * @param tokensPerMonth the most model tokens per month of 30 days, counted the same way
 * @param scope whose use is counted
 * @since 0.1.0
 */
public record Budget(long turnsPerMinute, long tokensPerDay, long tokensPerMonth, BudgetScope scope) {

	static final Duration MINUTE = Duration.ofMinutes(1);

	static final Duration DAY = Duration.ofDays(1);

	static final Duration MONTH = Duration.ofDays(30);

	public Budget {
		Objects.requireNonNull(scope, "'scope' must not be null");
		notNegative(turnsPerMinute, "turnsPerMinute");
		notNegative(tokensPerDay, "tokensPerDay");
		notNegative(tokensPerMonth, "tokensPerMonth");
	}

	/**
	 * Return whether any limit is set.
	 * @return whether this budget limits anything
	 */
	public boolean limits() {
		return this.turnsPerMinute > 0 || this.tokensPerDay > 0 || this.tokensPerMonth > 0;
	}

	/**
	 * Return whether tokens are limited, per day or per month.
	 * @return whether model calls reserve tokens
	 */
	public boolean limitsTokens() {
		return this.tokensPerDay > 0 || this.tokensPerMonth > 0;
	}

	/** A limit's bucket: turns refill smoothly, tokens all at once when their period is over. */
	static BucketConfiguration configuration(Limit limit, long amount) {
		return BucketConfiguration.builder().addLimit((bandwidth) -> switch (limit) {
			case TURNS_PER_MINUTE -> bandwidth.capacity(amount).refillGreedy(amount, MINUTE);
			case TOKENS_PER_DAY -> bandwidth.capacity(amount).refillIntervally(amount, DAY);
			case TOKENS_PER_MONTH -> bandwidth.capacity(amount).refillIntervally(amount, MONTH);
		}).build();
	}

	private static void notNegative(long value, String name) {
		if (value < 0) {
			throw new IllegalArgumentException("'" + name + "' must not be negative, was " + value);
		}
	}

	/**
	 * A limit of a budget, as named in the {@code limit} tag of
	 * {@code agent.budget.exceeded} and in {@link BudgetExceededException#limit()}.
	 */
	public enum Limit {

		/** Turns per minute. */
		TURNS_PER_MINUTE("turns_per_minute", "turns per minute", MINUTE),

		/** Tokens per day. */
		TOKENS_PER_DAY("tokens_per_day", "tokens per day", DAY),

		/** Tokens per month. */
		TOKENS_PER_MONTH("tokens_per_month", "tokens per month", MONTH);

		private final String tag;

		private final String description;

		private final Duration period;

		Limit(String tag, String description, Duration period) {
			this.tag = tag;
			this.description = description;
			this.period = period;
		}

		/**
		 * Return the name used in metrics, audit events and bucket keys.
		 * @return such as {@code turns_per_minute}
		 */
		public String tag() {
			return this.tag;
		}

		String description() {
			return this.description;
		}

		/** The window after which the whole limit is back. */
		Duration period() {
			return this.period;
		}

	}

}
