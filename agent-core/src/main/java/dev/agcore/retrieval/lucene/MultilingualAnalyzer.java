package dev.agcore.retrieval.lucene;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analyzer of {@link LuceneDocumentIndex}'s keyword channel, for mixed English and
 * CJK text: Unicode word breaking, full/half-width folding, lower case, Chinese, Japanese
 * and Korean runs as overlapping bigrams (so that BM25 matches Chinese words without a
 * dictionary), English (Snowball's list) and Chinese function words removed and English words stemmed.
 */
final class MultilingualAnalyzer extends Analyzer {

	// function words of the questions agents and users ask ("how do I ...", "怎么...");
	// matching them only adds noise to BM25, and through fusion to hybrid results
	private static final CharArraySet STOP_WORDS = stopWords();

	@Override
	protected TokenStreamComponents createComponents(String fieldName) {
		Tokenizer source = new StandardTokenizer();
		TokenStream result = new CJKWidthFilter(source);
		result = new LowerCaseFilter(result);
		result = new CJKBigramFilter(result);
		result = new EnglishPossessiveFilter(result);
		result = new StopFilter(result, STOP_WORDS);
		result = new PorterStemFilter(result);
		return new TokenStreamComponents(source, result);
	}

	private static CharArraySet stopWords() {
		try (Reader english = new InputStreamReader(
				Objects.requireNonNull(SnowballFilter.class.getResourceAsStream("english_stop.txt")),
				StandardCharsets.UTF_8)) {
			CharArraySet words = new CharArraySet(WordlistLoader.getSnowballWordSet(english), false);
			words.addAll(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
			// CJK text reaches the filter as bigrams (and lone characters)
			words.addAll(List.of("怎么", "么办", "么样", "么时", "什么", "时候", "哪里", "哪儿", "多少", "如何", "为什", "请问", "是否",
					"能否", "我们", "你们", "我的", "的", "了", "吗", "呢", "吧", "我", "你"));
			return CharArraySet.unmodifiableSet(words);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read Lucene's English stop words", ex);
		}
	}

	@Override
	protected TokenStream normalize(String fieldName, TokenStream in) {
		return new LowerCaseFilter(new CJKWidthFilter(in));
	}

}
