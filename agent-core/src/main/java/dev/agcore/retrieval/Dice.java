package dev.agcore.retrieval;

import java.util.Arrays;
import java.util.Locale;

/**
 * The Dice coefficient over character bigrams, {@code 2·|A∩B| / (|A| + |B|)} where A and B
 * are the sets of pairs of consecutive characters of two texts: 1 for identical texts, 0
 * when they share no pair or one is shorter than two characters. It needs no word
 * boundaries, so it works for Chinese as for English. Texts are lower-cased with
 * {@link Locale#ROOT} first, so the comparison ignores case; spaces and punctuation count
 * as characters.
 *
 * @since 0.1.0
 */
public final class Dice {

	private Dice() {
	}

	/**
	 * Compare two texts.
	 * @param first a text
	 * @param second another text
	 * @return the coefficient, between 0 and 1
	 */
	public static double similarity(String first, String second) {
		return compare(Query.of(first), Field.of(second)).whole();
	}

	/**
	 * Compare a query with the passage of a text that is most like it: every window of
	 * the text as long as the query (in characters) is compared, so a long text that
	 * contains the query scores as high as the query itself, which the plain coefficient
	 * would drown in the rest of the text. A text no longer than the query is compared
	 * whole. Within a window, pairs that are not in the query are counted as distinct,
	 * which can only lower the coefficient of a window that repeats them. Runs in time
	 * linear in the text's length.
	 * @param query the query
	 * @param text the text
	 * @return the best coefficient of a window, between 0 and 1
	 */
	public static double bestWindow(String query, String text) {
		return compare(Query.of(query), Field.of(text)).window();
	}

	/**
	 * Compare a prepared query with a prepared field, in one pass over the field.
	 * @param query the query
	 * @param field the field
	 * @return the coefficient of the whole field and of its best window
	 */
	static Scores compare(Query query, Field field) {
		if (query.size() == 0 || field.distinct() == 0) {
			return Scores.NONE;
		}
		String text = field.text();
		boolean windowed = field.length() > query.length();
		int pairs = query.length() - 1;
		boolean[] seen = new boolean[query.size()];
		int sharedInField = 0;
		int[] counts = new int[query.size()];
		int[] ring = new int[pairs];
		int sharedInWindow = 0;
		int repeats = 0;
		int entered = 0;
		double best = 0;
		int previous = text.codePointAt(0);
		int i = Character.charCount(previous);
		while (i < text.length()) {
			int next = text.codePointAt(i);
			i += Character.charCount(next);
			int index = query.indexOf(pair(previous, next));
			previous = next;
			if (index >= 0 && !seen[index]) {
				seen[index] = true;
				sharedInField++;
			}
			if (!windowed) {
				continue;
			}
			int slot = entered % pairs;
			if (entered >= pairs) {
				int left = ring[slot];
				if (left >= 0) {
					counts[left]--;
					if (counts[left] == 0) {
						sharedInWindow--;
					}
					else {
						repeats--;
					}
				}
			}
			ring[slot] = index;
			if (index >= 0) {
				counts[index]++;
				if (counts[index] == 1) {
					sharedInWindow++;
				}
				else {
					repeats++;
				}
			}
			entered++;
			if (entered >= pairs) {
				best = Math.max(best, 2.0 * sharedInWindow / (query.size() + pairs - repeats));
			}
		}
		double whole = 2.0 * sharedInField / (query.size() + field.distinct());
		return new Scores(whole, windowed ? best : whole);
	}

	static long pair(int first, int second) {
		return ((long) first << 32) | (second & 0xFFFFFFFFL);
	}

	private static long[] sortedPairs(String lowered) {
		int length = lowered.codePointCount(0, lowered.length());
		long[] pairs = new long[Math.max(length - 1, 0)];
		if (pairs.length == 0) {
			return pairs;
		}
		int previous = lowered.codePointAt(0);
		int i = Character.charCount(previous);
		int n = 0;
		while (i < lowered.length()) {
			int next = lowered.codePointAt(i);
			i += Character.charCount(next);
			pairs[n++] = pair(previous, next);
			previous = next;
		}
		Arrays.sort(pairs);
		return pairs;
	}

	private static int countDistinct(long[] sorted) {
		int distinct = 0;
		for (int i = 0; i < sorted.length; i++) {
			if (i == 0 || sorted[i] != sorted[i - 1]) {
				distinct++;
			}
		}
		return distinct;
	}

	/**
	 * The coefficients of a field.
	 *
	 * @param whole of the whole field
	 * @param window of its best window
	 */
	record Scores(double whole, double window) {

		static final Scores NONE = new Scores(0, 0);

	}

	/**
	 * A text to compare queries with, lower-cased, with its number of distinct bigrams:
	 * prepared once when a document is indexed.
	 *
	 * @param text the text, lower-cased
	 * @param length its length in characters
	 * @param distinct its number of distinct bigrams
	 */
	record Field(String text, int length, int distinct) {

		static final Field EMPTY = new Field("", 0, 0);

		static Field of(String text) {
			if (text.isEmpty()) {
				return EMPTY;
			}
			String lowered = text.toLowerCase(Locale.ROOT);
			return new Field(lowered, lowered.codePointCount(0, lowered.length()), countDistinct(sortedPairs(lowered)));
		}

	}

	/**
	 * A query's distinct bigrams in an open-addressing table, so that looking a bigram up
	 * costs a few array reads: prepared once per search.
	 */
	static final class Query {

		private final int length;

		private final long[] keys;

		private final int[] indexes;

		private final int size;

		private Query(int length, long[] keys, int[] indexes, int size) {
			this.length = length;
			this.keys = keys;
			this.indexes = indexes;
			this.size = size;
		}

		static Query of(String query) {
			String lowered = query.toLowerCase(Locale.ROOT);
			long[] pairs = sortedPairs(lowered);
			int distinct = countDistinct(pairs);
			int capacity = Integer.highestOneBit(Math.max(distinct, 2) * 4 - 1) << 1;
			long[] keys = new long[capacity];
			int[] indexes = new int[capacity];
			Arrays.fill(indexes, -1);
			int size = 0;
			for (int i = 0; i < pairs.length; i++) {
				if (i > 0 && pairs[i] == pairs[i - 1]) {
					continue;
				}
				int slot = slot(pairs[i], capacity);
				while (indexes[slot] >= 0) {
					slot = (slot + 1) & (capacity - 1);
				}
				keys[slot] = pairs[i];
				indexes[slot] = size++;
			}
			return new Query(lowered.codePointCount(0, lowered.length()), keys, indexes, size);
		}

		/** The query's length in characters. */
		int length() {
			return this.length;
		}

		/** The number of distinct bigrams. */
		int size() {
			return this.size;
		}

		/** The index of a bigram among the distinct ones, or -1 if the query lacks it. */
		int indexOf(long pair) {
			int mask = this.keys.length - 1;
			int slot = slot(pair, this.keys.length);
			while (this.indexes[slot] >= 0) {
				if (this.keys[slot] == pair) {
					return this.indexes[slot];
				}
				slot = (slot + 1) & mask;
			}
			return -1;
		}

		private static int slot(long pair, int capacity) {
			long mixed = pair * 0x9E3779B97F4A7C15L;
			return (int) (mixed >>> 40) & (capacity - 1);
		}

	}

}
