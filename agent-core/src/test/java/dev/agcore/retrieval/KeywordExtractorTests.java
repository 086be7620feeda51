package dev.agcore.retrieval;

import java.util.Locale;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KeywordExtractor}.
 */
class KeywordExtractorTests {

	private final KeywordExtractor extractor = KeywordExtractor.defaults();

	@Test
	void englishWordsAreLowerCasedWithoutStopWordsOrSingleCharacters() {
		assertThat(this.extractor.extract("How do I configure the Retry policy of a client? x 42"))
			.containsExactly("configure", "retry", "policy", "client", "42");
	}

	@Test
	void theSeedsSixtyEightStopWordsAreDropped() {
		assertThat(KeywordExtractor.ENGLISH_STOP_WORDS).hasSize(68);
		assertThat(this.extractor.extract("what is the it and of with without")).isEmpty();
	}

	@Test
	void wordsRepeatOnce() {
		assertThat(this.extractor.extract("Retry retry RETRY")).containsExactly("retry");
	}

	@Test
	void lowerCasingIgnoresTheDefaultLocale() {
		// with a Turkish default locale, "TITLE".toLowerCase() gives a dotless i
		Locale before = Locale.getDefault();
		Locale.setDefault(Locale.forLanguageTag("tr-TR"));
		try {
			assertThat(this.extractor.extract("TITLE")).containsExactly("title");
		}
		finally {
			Locale.setDefault(before);
		}
	}

	@Test
	void chineseRunsBecomeOverlappingBigrams() {
		assertThat(this.extractor.extract("向量检索")).containsExactly("向量", "量检", "检索");
	}

	@Test
	void chineseParticlesAndFunctionWordsAreDropped() {
		// 的 never starts or ends a word; 如何 and 什么 are function words
		assertThat(this.extractor.extract("如何配置重试的策略")).containsExactly("配置", "置重", "重试", "策略");
		assertThat(this.extractor.extract("什么是")).isEmpty();
	}

	@Test
	void aSingleChineseCharacterIsAKeyword() {
		assertThat(this.extractor.extract("猫 and 狗")).containsExactly("猫", "狗");
		assertThat(this.extractor.extract("的")).isEmpty();
	}

	@Test
	void mixedTextSplitsAtScriptChanges() {
		assertThat(this.extractor.extract("Redis缓存配置")).containsExactly("redis", "缓存", "存配", "配置");
		assertThat(this.extractor.extract("カタカナ")).containsExactly("カタ", "タカ", "カナ");
	}

	@Test
	void theKeywordTextKeepsTheMeaningfulWordsInOrder() {
		assertThat(this.extractor.keywordText("What is the Retry policy?")).isEqualTo("retry policy");
		assertThat(this.extractor.keywordText("如何配置重试的策略")).isEqualTo("配置重试 策略");
		assertThat(this.extractor.keywordText("Redis缓存, x")).isEqualTo("redis 缓存");
		assertThat(this.extractor.keywordText("what is it")).isEmpty();
	}

	@Test
	void otherStopWordsReplaceTheDefaults() {
		KeywordExtractor custom = KeywordExtractor.withStopWords(Set.of("Retry"));
		assertThat(custom.extract("the retry policy")).containsExactly("the", "policy");
	}

	@Test
	void keywordsAreBounded() {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < 200; i++) {
			text.append("word").append(i).append(' ');
		}
		assertThat(this.extractor.extract(text.toString())).hasSize(KeywordExtractor.MAX_KEYWORDS)
			.startsWith("word0", "word1");
	}

}
