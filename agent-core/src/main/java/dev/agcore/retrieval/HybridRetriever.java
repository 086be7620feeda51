package dev.agcore.retrieval;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agcore.support.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link Retriever} that asks several retrievers, typically a keyword and a vector one,
 * and merges their answers by {@link ReciprocalRankFusion reciprocal-rank fusion}, since
 * their scores are on scales that cannot be compared.
 * <p>
 * Each retriever is asked for {@code max(topK, candidates)} documents with the request's
 * filter and no minimum score (its scale is not the fused one); the request's
 * {@code minScore} applies to the fused score. A retriever that fails is logged and left
 * out, so that keyword search still answers while an embedding service is down; the
 * search fails only when every retriever fails.
 *
 * @since 0.1.0
 */
public final class HybridRetriever implements Retriever {

	/** How many candidates each retriever is asked for by default. */
	public static final int DEFAULT_CANDIDATES = 50;

	private static final Logger logger = LoggerFactory.getLogger(HybridRetriever.class);

	private final List<Retriever> retrievers;

	private final ReciprocalRankFusion fusion;

	private final int candidates;

	/**
	 * Create a retriever fusing with {@link ReciprocalRankFusion#DEFAULT_K k = 60} and
	 * {@link #DEFAULT_CANDIDATES} candidates per retriever.
	 * @param retrievers the retrievers, not empty
	 */
	public HybridRetriever(List<? extends Retriever> retrievers) {
		this(retrievers, ReciprocalRankFusion.DEFAULT_K, DEFAULT_CANDIDATES);
	}

	/**
	 * Create a retriever.
	 * @param retrievers the retrievers, not empty
	 * @param k the rank constant of the fusion, at least 1
	 * @param candidates how many documents each retriever is asked for, at least 1 (more
	 * when a request's topK is larger)
	 */
	public HybridRetriever(List<? extends Retriever> retrievers, int k, int candidates) {
		Objects.requireNonNull(retrievers, "'retrievers' must not be null");
		if (retrievers.isEmpty()) {
			throw new IllegalArgumentException("'retrievers' must not be empty");
		}
		if (candidates < 1) {
			throw new IllegalArgumentException("'candidates' must be at least 1, was " + candidates);
		}
		this.retrievers = List.copyOf(retrievers);
		this.fusion = new ReciprocalRankFusion(k);
		this.candidates = candidates;
	}

	@Override
	public Mono<List<ScoredDocument>> retrieve(SearchRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		SearchRequest channelRequest = request.withTopK(Math.max(request.topK(), this.candidates)).withMinScore(0);
		return Mono.defer(() -> retrieveAll(channelRequest, request));
	}

	private Mono<List<ScoredDocument>> retrieveAll(SearchRequest channelRequest, SearchRequest request) {
		List<Throwable> failures = new ArrayList<>();
		// flatMapSequential: asked concurrently, fused in the order of the retrievers
		return Flux.fromIterable(this.retrievers)
			.flatMapSequential((retriever) -> Mono.defer(() -> retriever.retrieve(channelRequest))
				.onErrorResume((ex) -> {
					synchronized (failures) {
						failures.add(ex);
					}
					logger.warn("Retriever {} failed, searching without it: {}", LogSafe.value(retriever),
							LogSafe.text(ex.toString()));
					return Mono.just(List.of());
				}))
			.collectList()
			.flatMap((rankings) -> {
				if (failures.size() == this.retrievers.size()) {
					// each failure was logged; the first one is the answer
					return Mono.error(failures.get(0));
				}
				return Mono.just(this.fusion.fuse(rankings, request.topK(), request.minScore()));
			});
	}

	@Override
	public String toString() {
		return "HybridRetriever" + this.retrievers;
	}

}
