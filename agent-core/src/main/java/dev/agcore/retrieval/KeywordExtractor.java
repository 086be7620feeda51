package dev.agcore.retrieval;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Extracts the keywords of a text, the words a keyword search looks for. Letters and
 * digits make words, lower-cased with {@link Locale#ROOT}; words shorter than two
 * characters and stop words are dropped. Chinese, Japanese and Korean are written without
 * spaces, so a run of those characters is split into overlapping character bigrams
 * ({@code 向量检索} gives {@code 向量}, {@code 量检}, {@code 检索}), which match the words
 * a page shares with the query without a dictionary; a run of one such character is kept
 * as it is. Runs are first cut at particles ({@code 的}, {@code 了}, ...) and two-character
 * function words ({@code 如何}, {@code 什么}, ...), so {@code 如何配置重试的策略} gives
 * {@code 配置}, {@code 置重}, {@code 重试}, {@code 策略}. Thread-safe.
 *
 * @since 0.1.0
 */
public final class KeywordExtractor {

	/** The 68 English stop words of the seed. */
	public static final Set<String> ENGLISH_STOP_WORDS = Set.of("the", "a", "an", "is", "are", "was", "were", "be",
			"been", "being", "have", "has", "had", "do", "does", "did", "will", "would", "should", "could", "may",
			"might", "shall", "can", "this", "that", "these", "those", "it", "its", "they", "them", "their", "what",
			"which", "who", "whom", "how", "when", "where", "and", "or", "but", "not", "no", "nor", "so", "if", "then",
			"else", "with", "without", "for", "to", "from", "in", "on", "at", "by", "of", "as", "into", "through",
			"during", "before", "after", "above", "below");

	/** Common Chinese function words, dropped from the bigrams and single characters. */
	public static final Set<String> CHINESE_STOP_WORDS = Set.of("我们", "你们", "他们", "它们", "什么", "怎么", "怎样",
			"如何", "这个", "那个", "这些", "那些", "一个", "可以", "没有", "因为", "所以", "但是", "如果", "还是",
			"或者", "以及", "而且", "就是", "不是", "已经", "是否", "我", "你", "他", "她", "它", "是", "在", "和", "与", "或",
			"也", "都", "就", "而", "及", "把", "被", "有", "这", "那", "个", "吗", "呢", "吧", "啊", "呀", "的", "了", "着",
			"么");

	/** Particles that end a word: a CJK run is cut at them. */
	private static final String CJK_PARTICLES = "的了吗呢吧啊呀着么";

	/** More keywords than this are ignored: queries come from models and users. */
	public static final int MAX_KEYWORDS = 64;

	/** Words and CJK pieces read from one text at most. */
	private static final int MAX_TERMS = 256;

	private static final KeywordExtractor DEFAULT = new KeywordExtractor(union(ENGLISH_STOP_WORDS, CHINESE_STOP_WORDS));

	private final Set<String> stopWords;

	private KeywordExtractor(Set<String> stopWords) {
		this.stopWords = stopWords;
	}

	/**
	 * Return the extractor with the English and Chinese stop words.
	 * @return the extractor
	 */
	public static KeywordExtractor defaults() {
		return DEFAULT;
	}

	/**
	 * Create an extractor with other stop words, lower-cased with {@link Locale#ROOT}.
	 * @param stopWords the stop words, replacing the default ones
	 * @return the extractor
	 */
	public static KeywordExtractor withStopWords(Set<String> stopWords) {
		Objects.requireNonNull(stopWords, "'stopWords' must not be null");
		Set<String> lowered = new LinkedHashSet<>();
		for (String word : stopWords) {
			lowered.add(word.toLowerCase(Locale.ROOT));
		}
		return new KeywordExtractor(Set.copyOf(lowered));
	}

	/**
	 * Extract the keywords of a text.
	 * @param text the text
	 * @return the distinct keywords in the order they first occur, at most
	 * {@link #MAX_KEYWORDS}
	 */
	public List<String> extract(String text) {
		Set<String> keywords = new LinkedHashSet<>();
		for (Term term : terms(text)) {
			if (!term.cjk() || term.text().codePointCount(0, term.text().length()) == 1) {
				keywords.add(term.text());
				continue;
			}
			int[] chars = term.text().codePoints().toArray();
			for (int j = 0; j + 1 < chars.length; j++) {
				String bigram = text(chars[j], chars[j + 1]);
				if (!this.stopWords.contains(bigram)) {
					keywords.add(bigram);
				}
			}
		}
		return keywords.stream().limit(MAX_KEYWORDS).toList();
	}

	/**
	 * Return the text without what carries no meaning: the kept words and CJK pieces,
	 * lower-cased, in their order, separated by one space ({@code "What is the retry
	 * policy?"} gives {@code "retry policy"}, {@code 如何配置重试的策略} gives
	 * {@code "配置重试 策略"}). Comparing this with a field, stop words do not dilute the
	 * similarity.
	 * @param text the text
	 * @return the meaningful text; empty if there is none
	 */
	public String keywordText(String text) {
		return String.join(" ", terms(text).stream().map(Term::text).toList());
	}

	/**
	 * Split a text into its kept words and CJK pieces: runs of CJK characters cut at
	 * particles and two-character stop words.
	 */
	private List<Term> terms(String text) {
		Objects.requireNonNull(text, "'text' must not be null");
		List<Term> terms = new ArrayList<>();
		StringBuilder word = new StringBuilder();
		List<Integer> cjkRun = new ArrayList<>();
		int i = 0;
		while (i < text.length() && terms.size() < MAX_TERMS) {
			int codePoint = text.codePointAt(i);
			i += Character.charCount(codePoint);
			if (isCjk(codePoint)) {
				addWord(word, terms);
				cjkRun.add(codePoint);
			}
			else if (Character.isLetterOrDigit(codePoint)) {
				addCjkRun(cjkRun, terms);
				word.appendCodePoint(codePoint);
			}
			else {
				addWord(word, terms);
				addCjkRun(cjkRun, terms);
			}
		}
		addWord(word, terms);
		addCjkRun(cjkRun, terms);
		return terms;
	}

	private void addWord(StringBuilder word, List<Term> terms) {
		if (word.codePointCount(0, word.length()) >= 2) {
			String keyword = word.toString().toLowerCase(Locale.ROOT);
			if (!this.stopWords.contains(keyword)) {
				terms.add(new Term(keyword, false));
			}
		}
		word.setLength(0);
	}

	private void addCjkRun(List<Integer> run, List<Term> terms) {
		List<Integer> piece = new ArrayList<>();
		int j = 0;
		while (j < run.size()) {
			int first = run.get(j);
			if (CJK_PARTICLES.indexOf(first) >= 0) {
				addCjkPiece(piece, terms);
				j++;
			}
			else if (j + 1 < run.size() && this.stopWords.contains(text(first, run.get(j + 1)))) {
				addCjkPiece(piece, terms);
				j += 2;
			}
			else {
				piece.add(first);
				j++;
			}
		}
		addCjkPiece(piece, terms);
		run.clear();
	}

	private void addCjkPiece(List<Integer> piece, List<Term> terms) {
		String text = text(piece.stream().mapToInt(Integer::intValue).toArray());
		if (piece.size() > 1 || (piece.size() == 1 && !this.stopWords.contains(text))) {
			terms.add(new Term(text, true));
		}
		piece.clear();
	}

	private static String text(int... codePoints) {
		return new String(codePoints, 0, codePoints.length).toLowerCase(Locale.ROOT);
	}

	/**
	 * Whether a character belongs to a script written without spaces between words: Han,
	 * Hiragana, Katakana or Hangul.
	 * @param codePoint the character
	 * @return whether it is CJK
	 */
	static boolean isCjk(int codePoint) {
		Character.UnicodeScript script = Character.UnicodeScript.of(codePoint);
		return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
				|| script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL;
	}

	private static Set<String> union(Set<String> first, Set<String> second) {
		Set<String> union = new LinkedHashSet<>(first);
		union.addAll(second);
		return Set.copyOf(union);
	}

	/** A kept word, or a piece of a CJK run. */
	private record Term(String text, boolean cjk) {
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + " (" + this.stopWords.size() + " stop words)";
	}

}
