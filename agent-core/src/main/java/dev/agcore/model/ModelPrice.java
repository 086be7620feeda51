package dev.agcore.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Prices of a model, per million tokens of each kind, in whatever currency the table is
 * kept in.
 *
 * @param input price of input tokens neither read from nor written to the prompt cache
 * @param output price of output tokens, reasoning included
 * @param cachedInput price of input tokens read from the prompt cache; null for the input
 * price
 * @param cacheWrite price of input tokens written to the prompt cache; null for the input
 * price
 */
public record ModelPrice(BigDecimal input, BigDecimal output, @Nullable BigDecimal cachedInput,
		@Nullable BigDecimal cacheWrite) {

	private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

	public ModelPrice {
		Objects.requireNonNull(input, "'input' must not be null");
		Objects.requireNonNull(output, "'output' must not be null");
		requireNotNegative(input, "input");
		requireNotNegative(output, "output");
		if (cachedInput != null) {
			requireNotNegative(cachedInput, "cachedInput");
		}
		if (cacheWrite != null) {
			requireNotNegative(cacheWrite, "cacheWrite");
		}
	}

	/**
	 * Create a price without cache prices: cached and cache-write tokens cost as input.
	 * @param input price per million input tokens
	 * @param output price per million output tokens
	 * @return the price
	 */
	public static ModelPrice of(double input, double output) {
		return new ModelPrice(BigDecimal.valueOf(input), BigDecimal.valueOf(output), null, null);
	}

	/**
	 * Return the cost of the given usage. Cached-input and cache-write tokens are parts of
	 * the input tokens (see {@link Usage}): the rest of the input is charged at the input
	 * price, they at their own prices.
	 * @param usage the tokens consumed
	 * @return the cost, never negative
	 */
	public BigDecimal cost(Usage usage) {
		long cached = Math.max(0, usage.cachedInputTokens());
		long written = Math.max(0, usage.cacheWriteTokens());
		// servers that count cache tokens apart from the input must not make the rest negative
		long uncached = Math.max(0, usage.inputTokens() - cached - written);
		BigDecimal total = this.input.multiply(BigDecimal.valueOf(uncached))
			.add(cachedInputPrice().multiply(BigDecimal.valueOf(cached)))
			.add(cacheWritePrice().multiply(BigDecimal.valueOf(written)))
			.add(this.output.multiply(BigDecimal.valueOf(Math.max(0, usage.outputTokens()))));
		return total.divide(MILLION, MathContext.DECIMAL64).stripTrailingZeros();
	}

	/**
	 * Return the price of cached input tokens: its own, else the input price.
	 * @return the price per million tokens
	 */
	public BigDecimal cachedInputPrice() {
		return (this.cachedInput != null) ? this.cachedInput : this.input;
	}

	/**
	 * Return the price of cache-write tokens: its own, else the input price.
	 * @return the price per million tokens
	 */
	public BigDecimal cacheWritePrice() {
		return (this.cacheWrite != null) ? this.cacheWrite : this.input;
	}

	private static void requireNotNegative(BigDecimal price, String name) {
		if (price.signum() < 0) {
			throw new IllegalArgumentException("'" + name + "' must not be negative (was " + price + ")");
		}
	}

}
