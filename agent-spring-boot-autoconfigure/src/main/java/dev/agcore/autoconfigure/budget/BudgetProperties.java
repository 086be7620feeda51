package dev.agcore.autoconfigure.budget;

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
	 * Most buckets kept by the in-memory store; the least recently used are forgotten.
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
