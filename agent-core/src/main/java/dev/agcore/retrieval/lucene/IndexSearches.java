package dev.agcore.retrieval.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.DoubleUnaryOperator;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.ReciprocalRankFusion;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.support.LogSafe;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TopDocs;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The searches of a {@link LuceneDocumentIndex}: keyword, vector and both fused. Lucene's
 * blocking work runs on {@link Schedulers#boundedElastic()}.
 */
final class IndexSearches {

	private static final Logger logger = LoggerFactory.getLogger(LuceneDocumentIndex.class);

	private final SearcherManager searchers;

	private final KeywordQueries keywordQueries;

	private final @Nullable EmbeddingModel embeddingModel;

	private final DocumentEmbedder embedder;

	private final ReciprocalRankFusion fusion;

	private final int candidates;

	private final Runnable ensureOpen;

	private final String location;

	IndexSearches(SearcherManager searchers, KeywordQueries keywordQueries, @Nullable EmbeddingModel embeddingModel,
			DocumentEmbedder embedder, ReciprocalRankFusion fusion, int candidates, Runnable ensureOpen,
			String location) {
		this.searchers = searchers;
		this.keywordQueries = keywordQueries;
		this.embeddingModel = embeddingModel;
		this.embedder = embedder;
		this.fusion = fusion;
		this.candidates = candidates;
		this.ensureOpen = ensureOpen;
		this.location = location;
	}

	/**
	 * Search by keywords alone without an embedding model, else by both channels fused.
	 * @param request the request
	 * @return the results
	 */
	Mono<List<ScoredDocument>> search(SearchRequest request) {
		if (this.embeddingModel == null) {
			return keywords(request);
		}
		int depth = Math.max(request.topK(), this.candidates);
		Query keywords = this.keywordQueries.text(request.query(), true);
		Query keywordQuery = (keywords != null) ? KeywordQueries.filtered(keywords, request.filter()) : null;
		// an embedding service that fails leaves the keyword channel to answer alone
		Mono<Optional<float[]>> vector = embedQuery(request.query()).map(Optional::of)
			.defaultIfEmpty(Optional.empty())
			.onErrorResume((ex) -> {
				logger.warn("Vector search in the Lucene index at {} failed, answering by keywords alone: {}",
						LogSafe.text(this.location), LogSafe.text(ex.toString()));
				return Mono.just(Optional.empty());
			});
		return vector.flatMap((queryVector) -> blocking(
				() -> searchBoth(keywordQuery, queryVector.orElse(null), depth, request)));
	}

	// both channels on one searcher, so that Lucene's document numbers identify documents
	// across them; only the fused top K are read from the stored fields
	private List<ScoredDocument> searchBoth(@Nullable Query keywordQuery, float @Nullable [] vector, int depth,
			SearchRequest request) throws IOException {
		this.ensureOpen.run();
		IndexSearcher searcher = this.searchers.acquire();
		try {
			List<ScoredDocument> keywordHits = (keywordQuery != null) ? byNumber(searcher.search(keywordQuery, depth))
					: List.of();
			List<ScoredDocument> vectorHits = (vector != null)
					? byNumber(searcher.search(vectorQuery(vector, depth, request), depth)) : List.of();
			List<ScoredDocument> fused = this.fusion.fuse(List.of(keywordHits, vectorHits), request.topK(),
					request.minScore());
			StoredFields stored = searcher.storedFields();
			List<ScoredDocument> results = new ArrayList<>(fused.size());
			for (ScoredDocument hit : fused) {
				int number = Integer.parseInt(hit.document().id());
				results.add(new ScoredDocument(LuceneDocuments.fromLucene(stored.document(number)), hit.score()));
			}
			return results;
		}
		finally {
			this.searchers.release(searcher);
		}
	}

	// placeholders named by document number, to be fused before anything is read
	private static List<ScoredDocument> byNumber(TopDocs top) {
		List<ScoredDocument> hits = new ArrayList<>(top.scoreDocs.length);
		for (ScoreDoc hit : top.scoreDocs) {
			hits.add(new ScoredDocument(Document.of(Integer.toString(hit.doc), ""), hit.score));
		}
		return hits;
	}

	Mono<List<ScoredDocument>> keywords(SearchRequest request) {
		return keywords(request, false);
	}

	private Mono<List<ScoredDocument>> keywords(SearchRequest request, boolean precise) {
		Query text = this.keywordQueries.text(request.query(), precise);
		if (text == null) {
			return Mono.just(List.of());
		}
		Query query = KeywordQueries.filtered(text, request.filter());
		return blocking(() -> search(query, request.topK(), request.minScore(), (score) -> score));
	}

	Mono<List<ScoredDocument>> vectors(SearchRequest request) {
		// Lucene scores cosine as (1 + cos) / 2: callers get the cosine back
		return embedQuery(request.query())
			.flatMap((vector) -> blocking(() -> search(vectorQuery(vector, request.topK(), request), request.topK(),
					request.minScore(), (score) -> 2 * score - 1)))
			.defaultIfEmpty(List.of());
	}

	// empty when the text has nothing to embed or its vector no direction
	private Mono<float[]> embedQuery(String query) {
		EmbeddingModel model = Objects.requireNonNull(this.embeddingModel);
		String text = query.strip();
		if (text.isEmpty()) {
			return Mono.empty();
		}
		text = (text.length() > LuceneDocumentIndex.MAX_EMBEDDED_CHARS)
				? text.substring(0, LuceneDocumentIndex.MAX_EMBEDDED_CHARS) : text;
		return model.embed(text).flatMap((vector) -> {
			this.embedder.checkDimensions(vector);
			return Vectors.hasMagnitude(vector) ? Mono.just(vector) : Mono.empty();
		});
	}

	private static Query vectorQuery(float[] vector, int k, SearchRequest request) {
		return new KnnFloatVectorQuery(LuceneDocuments.VECTOR, vector, k, KeywordQueries.filter(request.filter()));
	}

	private List<ScoredDocument> search(Query query, int topK, double minScore, DoubleUnaryOperator scale)
			throws IOException {
		this.ensureOpen.run();
		IndexSearcher searcher = this.searchers.acquire();
		try {
			TopDocs top = searcher.search(query, topK);
			StoredFields stored = searcher.storedFields();
			List<ScoredDocument> results = new ArrayList<>(top.scoreDocs.length);
			for (ScoreDoc hit : top.scoreDocs) {
				double score = scale.applyAsDouble(hit.score);
				if (score >= minScore) {
					results.add(new ScoredDocument(LuceneDocuments.fromLucene(stored.document(hit.doc)), score));
				}
			}
			return results;
		}
		finally {
			this.searchers.release(searcher);
		}
	}

	private static <T> Mono<T> blocking(Callable<T> work) {
		return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
	}

}
