package dev.agcore.retrieval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reciprocal-rank fusion: merges ranked lists whose scores are on different scales (BM25,
 * cosine similarity) by rank alone. A document scores the sum of {@code 1 / (k + rank)}
 * over the lists it appears in, rank starting at 1, so documents that several channels
 * rank well come first. See Cormack, Clarke and Büttcher, SIGIR 2009.
 *
 * @since 0.1.0
 */
public final class ReciprocalRankFusion {

	/** The {@code k} of the original paper, which dampens the weight of the top ranks. */
	public static final int DEFAULT_K = 60;

	private final int k;

	/**
	 * Create a fusion.
	 * @param k the rank constant, at least 1; {@link #DEFAULT_K} is the usual choice
	 */
	public ReciprocalRankFusion(int k) {
		if (k < 1) {
			throw new IllegalArgumentException("'k' must be at least 1, was " + k);
		}
		this.k = k;
	}

	/**
	 * Return the rank constant.
	 * @return k
	 */
	public int k() {
		return this.k;
	}

	/**
	 * Fuse ranked lists. A document is identified by its id: it counts once per list (its
	 * best rank there) and the first list that has it supplies the returned instance. Ties
	 * keep the order in which documents were first seen.
	 * @param rankings the lists, each best first
	 * @param topK the maximum number of results
	 * @param minScore fused scores below it are dropped
	 * @return at most {@code topK} documents, best first, scored by fused score
	 */
	public List<ScoredDocument> fuse(List<List<ScoredDocument>> rankings, int topK, double minScore) {
		Map<String, Fused> byId = new LinkedHashMap<>();
		for (List<ScoredDocument> ranking : rankings) {
			Set<String> seen = new HashSet<>();
			int rank = 0;
			for (ScoredDocument scored : ranking) {
				String id = scored.document().id();
				if (!seen.add(id)) {
					continue;
				}
				rank++;
				double contribution = 1.0 / (this.k + rank);
				byId.computeIfAbsent(id, (key) -> new Fused(scored.document(), byId.size())).score += contribution;
			}
		}
		List<Fused> fused = new ArrayList<>(byId.values());
		fused.sort((a, b) -> (a.score != b.score) ? Double.compare(b.score, a.score) : Integer.compare(a.order, b.order));
		List<ScoredDocument> results = new ArrayList<>(Math.min(topK, fused.size()));
		for (Fused candidate : fused) {
			if (results.size() == topK) {
				break;
			}
			if (candidate.score >= minScore) {
				results.add(new ScoredDocument(candidate.document, candidate.score));
			}
		}
		return results;
	}

	private static final class Fused {

		final Document document;

		final int order;

		double score;

		Fused(Document document, int order) {
			this.document = document;
			this.order = order;
		}

	}

}
