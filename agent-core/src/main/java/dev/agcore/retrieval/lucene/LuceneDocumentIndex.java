package dev.agcore.retrieval.lucene;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.DocumentIndex;
import dev.agcore.retrieval.ReciprocalRankFusion;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link DocumentIndex} in an embedded Apache Lucene index, on disk or in memory, with
 * two channels: BM25 keyword search over title (boosted), summary and content, and, when
 * an {@link EmbeddingModel} is given, HNSW vector search by cosine similarity. With both,
 * {@link #retrieve} fuses them by {@link ReciprocalRankFusion reciprocal-rank fusion}.
 * <p>
 * Scores: BM25 for the keyword channel, cosine similarity (-1 to 1) for the vector
 * channel, the fused score (at most {@code 2 / (k + 1)}) for both; a request's
 * {@code minScore} applies to the scale that {@link #retrieve} returns. Metadata filters
 * are exact matches, applied inside both searches (not after), so filtered searches still
 * return {@code topK} results.
 * <p>
 * Thread-safe. Lucene's blocking work runs on {@link Schedulers#boundedElastic()}. Each
 * {@link #add} and {@link #delete} is committed, so an on-disk index survives a restart; it
 * records the embedding model's name and dimensions, and refuses to open with another
 * model, whose vectors could not be compared. Close it to release the files.
 *
 * @since 0.1.0
 */
public final class LuceneDocumentIndex implements DocumentIndex, Closeable {

	/** How many candidates each channel contributes to the fusion by default. */
	public static final int DEFAULT_CANDIDATES = 50;

	// longer texts are cut before embedding: models truncate anyway, and APIs reject inputs
	// beyond their context
	static final int MAX_EMBEDDED_CHARS = 8_000;

	private final Directory directory;

	private final String location;

	private final Analyzer analyzer = new MultilingualAnalyzer();

	private final IndexWriter writer;

	private final SearcherManager searchers;

	private final @Nullable EmbeddingModel embeddingModel;

	private final DocumentEmbedder embedder;

	private final IndexSearches searches;

	private final AtomicBoolean closed = new AtomicBoolean();

	private LuceneDocumentIndex(Builder builder) throws IOException {
		this.directory = (builder.path != null) ? FSDirectory.open(builder.path) : new ByteBuffersDirectory();
		this.location = (builder.path != null) ? builder.path.toAbsolutePath().toString() : "memory";
		this.embeddingModel = builder.embeddingModel;
		this.embedder = new DocumentEmbedder(builder.embeddingModel, MAX_EMBEDDED_CHARS);
		IndexWriter writer = null;
		try {
			IndexCommitData.check(this.directory, this.location, this.embeddingModel);
			IndexWriterConfig config = new IndexWriterConfig(this.analyzer).setCodec(new HighDimensionCodec())
				.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
				.setRAMBufferSizeMB(64);
			writer = new IndexWriter(this.directory, config);
			IndexCommitData.record(writer, this.embeddingModel);
			this.writer = writer;
			this.searchers = new SearcherManager(writer, null);
			this.searches = new IndexSearches(this.searchers, new KeywordQueries(this.analyzer), this.embeddingModel,
					this.embedder, new ReciprocalRankFusion(builder.rrfK), builder.candidates, this::ensureOpen,
					this.location);
		}
		catch (IOException | RuntimeException ex) {
			if (writer != null) {
				writer.rollback();
			}
			this.directory.close();
			throw ex;
		}
	}

	/**
	 * Start building an index.
	 * @return the builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public Mono<Void> add(List<Document> documents) {
		Objects.requireNonNull(documents, "'documents' must not be null");
		List<Document> batch = List.copyOf(documents);
		if (batch.isEmpty()) {
			return Mono.empty();
		}
		return Mono.fromRunnable(this::ensureOpen).then(this.embedder.embed(batch)).flatMap((vectors) -> blocking(() -> {
			ensureOpen();
			for (int i = 0; i < batch.size(); i++) {
				Document document = batch.get(i);
				this.writer.updateDocument(new Term(LuceneDocuments.ID, document.id()),
						LuceneDocuments.toLucene(document, vectors.get(i)));
			}
			commit();
			return batch.size();
		})).then();
	}

	@Override
	public Mono<Void> delete(Collection<String> ids) {
		Objects.requireNonNull(ids, "'ids' must not be null");
		List<String> unique = List.copyOf(ids);
		if (unique.isEmpty()) {
			return Mono.empty();
		}
		return blocking(() -> {
			ensureOpen();
			this.writer.deleteDocuments(unique.stream().map((id) -> new Term(LuceneDocuments.ID, id)).toArray(Term[]::new));
			commit();
			return unique.size();
		}).then();
	}

	/**
	 * Search: by keywords alone without an embedding model, else by both channels fused.
	 * When fusing, a keyword query of three or more terms must match at least two of them
	 * (a quarter when longer): a document sharing one common word with a question is noise
	 * that would outrank the vector channel's answer, and finding documents by meaning is
	 * that channel's job. If embedding the query fails, the failure is logged and the
	 * keyword channel answers alone.
	 */
	@Override
	public Mono<List<ScoredDocument>> retrieve(SearchRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		return Mono.defer(() -> {
			ensureOpen();
			return this.searches.search(request);
		});
	}

	/**
	 * Return the keyword channel alone, scored by BM25.
	 * @return a retriever over this index
	 */
	public Retriever keywordChannel() {
		return (request) -> Mono.defer(() -> {
			ensureOpen();
			return this.searches.keywords(request);
		});
	}

	/**
	 * Return the vector channel alone, scored by cosine similarity.
	 * @return a retriever over this index
	 * @throws IllegalStateException if the index has no embedding model
	 */
	public Retriever vectorChannel() {
		if (this.embeddingModel == null) {
			throw new IllegalStateException("The Lucene index at " + this.location
					+ " has no embedding model, so no vector channel");
		}
		return (request) -> Mono.defer(() -> {
			ensureOpen();
			return this.searches.vectors(request);
		});
	}

	/**
	 * Return the embedding model, if any.
	 * @return the model, or null when the index is keyword-only
	 */
	public @Nullable EmbeddingModel embeddingModel() {
		return this.embeddingModel;
	}

	/**
	 * Return how many documents are searchable.
	 * @return the number of documents
	 */
	public int size() {
		ensureOpen();
		try {
			IndexSearcher searcher = this.searchers.acquire();
			try {
				return searcher.getIndexReader().numDocs();
			}
			finally {
				this.searchers.release(searcher);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the Lucene index at " + this.location, ex);
		}
	}

	private void commit() throws IOException {
		this.writer.commit();
		this.searchers.maybeRefreshBlocking();
	}

	private void ensureOpen() {
		if (this.closed.get()) {
			throw new IllegalStateException("The Lucene index at " + this.location + " is closed");
		}
	}

	private static <T> Mono<T> blocking(Callable<T> work) {
		return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Commit what was added and release the index's files. Idempotent.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		try (Directory directory = this.directory; Analyzer analyzer = this.analyzer) {
			try (SearcherManager searchers = this.searchers) {
				this.writer.close();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not close the Lucene index at " + this.location, ex);
		}
	}

	@Override
	public String toString() {
		return "LuceneDocumentIndex[" + this.location + ", embedding="
				+ ((this.embeddingModel != null) ? this.embeddingModel.name() : "none") + "]";
	}

	/**
	 * Builds a {@link LuceneDocumentIndex}.
	 */
	public static final class Builder {

		private @Nullable Path path;

		private @Nullable EmbeddingModel embeddingModel;

		private int rrfK = ReciprocalRankFusion.DEFAULT_K;

		private int candidates = DEFAULT_CANDIDATES;

		private Builder() {
		}

		/**
		 * Keep the index in a directory, created if missing, opened if it holds one.
		 * Without it the index lives in memory and is lost on close.
		 * @param path the directory
		 * @return this builder
		 */
		public Builder path(Path path) {
			this.path = Objects.requireNonNull(path, "'path' must not be null");
			return this;
		}

		/**
		 * Embed documents and queries with a model, enabling the vector channel.
		 * @param embeddingModel the model, null for keyword search only
		 * @return this builder
		 */
		public Builder embeddingModel(@Nullable EmbeddingModel embeddingModel) {
			this.embeddingModel = embeddingModel;
			return this;
		}

		/**
		 * Set the rank constant of the fusion. Defaults to 60.
		 * @param rrfK the constant, at least 1
		 * @return this builder
		 */
		public Builder rrfK(int rrfK) {
			if (rrfK < 1) {
				throw new IllegalArgumentException("'rrfK' must be at least 1, was " + rrfK);
			}
			this.rrfK = rrfK;
			return this;
		}

		/**
		 * Set how many documents each channel contributes to the fusion (more when a
		 * request's topK is larger). Defaults to 50.
		 * @param candidates the number, at least 1
		 * @return this builder
		 */
		public Builder candidates(int candidates) {
			if (candidates < 1) {
				throw new IllegalArgumentException("'candidates' must be at least 1, was " + candidates);
			}
			this.candidates = candidates;
			return this;
		}

		/**
		 * Open or create the index.
		 * @return the index
		 * @throws UncheckedIOException if the directory cannot be opened
		 * @throws IllegalStateException if the index there was built with another
		 * embedding model or dimensions
		 */
		public LuceneDocumentIndex build() {
			try {
				return new LuceneDocumentIndex(this);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not open the Lucene index at "
						+ ((this.path != null) ? this.path.toAbsolutePath() : "memory") + ": " + ex.getMessage(), ex);
			}
		}

	}

}
