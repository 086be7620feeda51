package dev.agcore.autoconfigure.budget;

import dev.agcore.budget.BudgetMiddleware;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Budgets of every agent ({@code agent.budget.*}): the limits an agent has unless its own
 * {@code agent.agents.<name>.budget.*} says otherwise, and where the counts are kept.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.budget")
public class BudgetProperties {

	/**
	 * Most turns a principal (or session) may start per minute, for every agent; 0 for no
	 * limit.
	 */
	private long turnsPerMinute;

	/**
	 * Most model tokens a principal (or session) may use per day, for every agent; 0 for
	 * no limit.
	 */
	private long tokensPerDay;

	/**
	 * Most model tokens a principal (or session) may use per month of 30 days, for every
	 * agent; 0 for no limit.
	 */
	private long tokensPerMonth;

	/**
	 * Tokens a model call reserves for its answer when its request sets no max-tokens,
	 * besides the estimate of its request; the unused part is given back once the model
	 * answered. Set it to at least the models' own max-tokens, so a call cannot use more
	 * than it reserved.
	 */
	private long outputReservation = BudgetMiddleware.DEFAULT_OUTPUT_RESERVATION;

	/**
	 * Whose use is counted: 'principal' (the authenticated user; anonymous turns per
	 * session) or 'session'.
	 */
	private String per = "principal";

	/**
	 * Where the counts are kept: 'auto' (the store of agent.memory.store: Redis or the
	 * database, shared by every instance; in memory otherwise), 'in-memory', 'redis' or
	 * 'jdbc'.
	 */
	private String store = "auto";

	/**
	 * Most buckets kept by the in-memory store. Only buckets that are full again are
	 * forgotten; when all are still in use, turns of principals (or sessions) without a
	 * bucket are refused.
	 */
	private int maxBuckets = 100_000;

	/**
	 * Prefix of the Redis keys of budgets.
	 */
	private String redisKeyPrefix = "agent:budget:";

	public long getTurnsPerMinute() {
		return this.turnsPerMinute;
	}

	public void setTurnsPerMinute(long turnsPerMinute) {
		this.turnsPerMinute = turnsPerMinute;
	}

	public long getTokensPerDay() {
		return this.tokensPerDay;
	}

	public void setTokensPerDay(long tokensPerDay) {
		this.tokensPerDay = tokensPerDay;
	}

	public long getTokensPerMonth() {
		return this.tokensPerMonth;
	}

	public void setTokensPerMonth(long tokensPerMonth) {
		this.tokensPerMonth = tokensPerMonth;
	}

	public long getOutputReservation() {
		return this.outputReservation;
	}

	public void setOutputReservation(long outputReservation) {
		this.outputReservation = outputReservation;
	}

	public String getPer() {
		return this.per;
	}

	public void setPer(String per) {
		this.per = per;
	}

	public String getStore() {
		return this.store;
	}

	public void setStore(String store) {
		this.store = store;
	}

	public int getMaxBuckets() {
		return this.maxBuckets;
	}

	public void setMaxBuckets(int maxBuckets) {
		this.maxBuckets = maxBuckets;
	}

	public String getRedisKeyPrefix() {
		return this.redisKeyPrefix;
	}

	public void setRedisKeyPrefix(String redisKeyPrefix) {
		this.redisKeyPrefix = redisKeyPrefix;
	}

}
