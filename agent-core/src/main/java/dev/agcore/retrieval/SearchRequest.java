package dev.agcore.retrieval;

import java.util.Map;
import java.util.Objects;

/**
 * What to search for.
 *
 * @param query the text to search for
 * @param topK the maximum number of results
 * @param minScore results scoring below it are dropped, on the retriever's own scale
 * @param filter metadata every result must have, key equal to value
 * @since 0.1.0
 */
public record SearchRequest(String query, int topK, double minScore, Map<String, String> filter) {

	/** How many results a search returns unless told otherwise. */
	public static final int DEFAULT_TOP_K = 10;

	public SearchRequest {
		Objects.requireNonNull(query, "'query' must not be null");
		if (topK < 1) {
			throw new IllegalArgumentException("'topK' must be at least 1, was " + topK);
		}
		filter = Map.copyOf(filter);
	}

	/**
	 * Search for a text, with the default top-k, no minimum score and no filter.
	 * @param query the text
	 * @return the request
	 */
	public static SearchRequest of(String query) {
		return new SearchRequest(query, DEFAULT_TOP_K, 0, Map.of());
	}

	public SearchRequest withTopK(int topK) {
		return new SearchRequest(this.query, topK, this.minScore, this.filter);
	}

	public SearchRequest withMinScore(double minScore) {
		return new SearchRequest(this.query, this.topK, minScore, this.filter);
	}

	public SearchRequest withFilter(Map<String, String> filter) {
		return new SearchRequest(this.query, this.topK, this.minScore, filter);
	}

	/**
	 * Whether a document has every attribute of the filter.
	 * @param document the document
	 * @return true if it matches
	 */
	public boolean matches(Document document) {
		for (Map.Entry<String, String> entry : this.filter.entrySet()) {
			if (!entry.getValue().equals(document.metadata().get(entry.getKey()))) {
				return false;
			}
		}
		return true;
	}

}
