package dev.agcore.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The budget of one agent ({@code agent.agents.<name>.budget.*}); what is not set comes
 * from {@code agent.budget.*}. A limit of 0 is no limit.
 *
 * @since 0.1.0
 */
public class AgentBudgetProperties {

	/**
	 * Most turns a principal (or session) may start per minute; 0 for no limit.
	 */
	private @Nullable Long turnsPerMinute;

	/**
	 * Most model tokens (input and output) a principal (or session) may use per day,
	 * counted from its first use; 0 for no limit.
	 */
	private @Nullable Long tokensPerDay;

	/**
	 * Most model tokens a principal (or session) may use per month of 30 days; 0 for no
	 * limit.
	 */
	private @Nullable Long tokensPerMonth;

	/**
	 * Whose use is counted: 'principal' (the authenticated user; anonymous turns per
	 * session) or 'session'.
	 */
	private @Nullable String per;

	public @Nullable Long getTurnsPerMinute() {
		return this.turnsPerMinute;
	}

	public void setTurnsPerMinute(@Nullable Long turnsPerMinute) {
		this.turnsPerMinute = turnsPerMinute;
	}

	public @Nullable Long getTokensPerDay() {
		return this.tokensPerDay;
	}

	public void setTokensPerDay(@Nullable Long tokensPerDay) {
		this.tokensPerDay = tokensPerDay;
	}

	public @Nullable Long getTokensPerMonth() {
		return this.tokensPerMonth;
	}

	public void setTokensPerMonth(@Nullable Long tokensPerMonth) {
		this.tokensPerMonth = tokensPerMonth;
	}

	public @Nullable String getPer() {
		return this.per;
	}

	public void setPer(@Nullable String per) {
		this.per = per;
	}

}
