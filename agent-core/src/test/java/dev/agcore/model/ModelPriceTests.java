package dev.agcore.model;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ModelPriceTests {

	@Test
	void chargesInputAndOutputPerMillionTokens() {
		ModelPrice price = ModelPrice.of(2.50, 10.00);

		BigDecimal cost = price.cost(Usage.of(1_000_000, 500_000));

		assertThat(cost).isEqualByComparingTo("7.5");
	}

	@Test
	void chargesCachedAndCacheWriteTokensAtTheirOwnPricesAndTheRestAtInput() {
		ModelPrice price = new ModelPrice(new BigDecimal("3"), new BigDecimal("15"), new BigDecimal("0.30"),
				new BigDecimal("3.75"));
		// 1000 input of which 600 cached and 200 written: 200 uncached
		Usage usage = new Usage(1000, 100, 1100).withDetails(600, 200, 0);

		BigDecimal cost = price.cost(usage);

		// (200 * 3 + 600 * 0.30 + 200 * 3.75 + 100 * 15) / 1e6
		assertThat(cost).isEqualByComparingTo("0.00303");
	}

	@Test
	void cacheTokensWithoutTheirOwnPriceCostAsInput() {
		ModelPrice price = ModelPrice.of(1, 2);
		Usage usage = new Usage(1000, 0, 1000).withDetails(500, 250, 0);

		assertThat(price.cost(usage)).isEqualByComparingTo(price.cost(Usage.of(1000, 0)));
	}

	@Test
	void cacheTokensCountedApartFromTheInputDoNotMakeTheRestNegative() {
		ModelPrice price = new ModelPrice(BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ZERO, null);
		Usage usage = new Usage(10, 0, 10).withDetails(1_000_000, 0, 0);

		assertThat(price.cost(usage)).isEqualByComparingTo("0");
	}

	@Test
	void negativePriceIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ModelPrice(BigDecimal.ONE, new BigDecimal("-1"), null, null))
			.withMessageContaining("output");
	}

}
