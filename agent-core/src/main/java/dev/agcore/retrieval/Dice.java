package dev.agcore.retrieval;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
		Set<Long> a = bigrams(first);
		Set<Long> b = bigrams(second);
		if (a.isEmpty() || b.isEmpty()) {
			return 0;
		}
		int shared = 0;
		for (Long bigram : a) {
			if (b.contains(bigram)) {
				shared++;
			}
		}
		return 2.0 * shared / (a.size() + b.size());
	}

	/**
	 * Compare a query with the passage of a text that is most like it: every window of
	 * the text as long as the query (in characters) is compared, so a long text that
	 * contains the query scores as high as the query itself, which the plain coefficient
	 * would drown in the rest of the text. A text no longer than the query is compared
	 * whole. Runs in time linear in the text's length.
	 * @param query the query
	 * @param text the text
	 * @return the best coefficient of a window, between 0 and 1
	 */
	public static double bestWindow(String query, String text) {
		Set<Long> wanted = bigrams(query);
		int[] chars = text.toLowerCase(Locale.ROOT).codePoints().toArray();
		int window = query.codePointCount(0, query.length());
		if (wanted.isEmpty() || chars.length < 2) {
			return 0;
		}
		if (chars.length <= window) {
			return similarity(query, text);
		}
		// a window of `window` characters holds `window - 1` bigrams
		int pairs = window - 1;
		Map<Long, Integer> counts = new HashMap<>();
		int distinct = 0;
		int shared = 0;
		double best = 0;
		for (int end = 0; end + 1 < chars.length; end++) {
			long added = pair(chars[end], chars[end + 1]);
			int count = counts.merge(added, 1, Integer::sum);
			if (count == 1) {
				distinct++;
				if (wanted.contains(added)) {
					shared++;
				}
			}
			int start = end - pairs;
			if (start >= 0) {
				long removed = pair(chars[start], chars[start + 1]);
				int left = counts.merge(removed, -1, Integer::sum);
				if (left == 0) {
					counts.remove(removed);
					distinct--;
					if (wanted.contains(removed)) {
						shared--;
					}
				}
			}
			if (end + 1 >= pairs) {
				best = Math.max(best, 2.0 * shared / (wanted.size() + distinct));
				if (best == 1.0) {
					break;
				}
			}
		}
		return best;
	}

	static Set<Long> bigrams(String text) {
		int[] chars = text.toLowerCase(Locale.ROOT).codePoints().toArray();
		Set<Long> bigrams = new HashSet<>();
		for (int i = 0; i + 1 < chars.length; i++) {
			bigrams.add(pair(chars[i], chars[i + 1]));
		}
		return bigrams;
	}

	private static long pair(int first, int second) {
		return ((long) first << 32) | (second & 0xFFFFFFFFL);
	}

}
