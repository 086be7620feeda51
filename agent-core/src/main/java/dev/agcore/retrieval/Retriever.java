package dev.agcore.retrieval;

import java.util.List;

import reactor.core.publisher.Mono;

/**
 * Finds the documents that best answer a query. Implementations are thread-safe and never
 * block the calling thread.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface Retriever {

	/**
	 * Search.
	 * @param request what to search for
	 * @return at most {@code topK} documents matching the filter, best first
	 */
	Mono<List<ScoredDocument>> retrieve(SearchRequest request);

}
