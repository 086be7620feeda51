package dev.agcore.retrieval;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Dice}.
 */
class DiceTests {

	@Test
	void emptyOrSingleCharacterTextsScoreZero() {
		assertThat(Dice.similarity("", "retry")).isZero();
		assertThat(Dice.similarity("retry", "")).isZero();
		assertThat(Dice.similarity("a", "a")).isZero();
		assertThat(Dice.bestWindow("", "retry")).isZero();
		assertThat(Dice.bestWindow("retry", "")).isZero();
	}

	@Test
	void identicalTextsScoreOne() {
		assertThat(Dice.similarity("retry policy", "retry policy")).isEqualTo(1.0);
		assertThat(Dice.similarity("向量检索", "向量检索")).isEqualTo(1.0);
	}

	@Test
	void caseIsIgnored() {
		assertThat(Dice.similarity("Retry", "rETRY")).isEqualTo(1.0);
	}

	@Test
	void sharedBigramsAreCounted() {
		// night: ni ig gh ht; nacht: na ac ch ht; one shared of 4 + 4
		assertThat(Dice.similarity("night", "nacht")).isCloseTo(0.25, within(1e-9));
		assertThat(Dice.similarity("abc", "xyz")).isZero();
	}

	@Test
	void chineseTextsShareCharacterBigrams() {
		// 向量检索 and 检索增强: 检索 shared, 3 bigrams each
		assertThat(Dice.similarity("向量检索", "检索增强")).isCloseTo(2.0 / 6, within(1e-9));
	}

	@Test
	void theBestWindowFindsTheQueryInALongText() {
		String text = "This long page talks about many things. Somewhere it mentions kafka once, then goes on "
				+ "about other topics for a long while.";
		assertThat(Dice.similarity("kafka", text)).isLessThan(0.2);
		assertThat(Dice.bestWindow("kafka", text)).isEqualTo(1.0);
		assertThat(Dice.bestWindow("zebra", text)).isLessThan(0.5);
	}

	@Test
	void theBestWindowOfAShortTextIsTheWholeText() {
		assertThat(Dice.bestWindow("retry policy", "retry")).isEqualTo(Dice.similarity("retry policy", "retry"));
	}

	@Test
	void theBestWindowCountsRepeatedBigramsOnce() {
		// "aaaa" has the single bigram "aa", like the query "aa"
		assertThat(Dice.bestWindow("aa", "xxaaaaxx")).isEqualTo(1.0);
		assertThat(Dice.bestWindow("abab", "zzzzabababzz")).isEqualTo(1.0);
	}

}
