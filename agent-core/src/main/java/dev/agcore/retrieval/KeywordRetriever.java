package dev.agcore.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import reactor.core.publisher.Mono;

/**
 * An in-memory keyword index: the seed's retriever, without its blind spots. A search
 * {@linkplain KeywordExtractor extracts the keywords} of the query; every document whose
 * title, summary, {@code tags} metadata or content contains one of them is a candidate,
 * scored by how much of the query each field holds:
 * <pre>
 * score = 0.5·sim(title) + 0.3·max(sim(summary), sim(tags)) + 0.2·sim(content)
 * sim(field) = (dice(query, field) + dice(query, best window of field)) / 2
 * </pre>
 * where {@code dice} is the {@linkplain Dice Dice coefficient over character bigrams}
 * and {@code query} is the query's {@linkplain KeywordExtractor#keywordText keyword text}
 * (its words without stop words, so they do not dilute the similarity).
 * The whole-field term rewards a field that says just what the query says; the
 * best-window term rewards a field that contains the query, so a long page that mentions
 * it is found and not drowned by its length. Scores lie between 0 and 1 and are
 * case-insensitive; a title identical to the query scores at least 0.5.
 * <p>
 * Results below the request's minimum score or not matching its filter are dropped; the
 * rest come best first, equal scores in the order the documents were first added,
 * at most top-k. A query without keywords (empty, or only stop words) finds nothing.
 * Thread-safe: searches read a snapshot, writes replace it.
 *
 * @since 0.1.0
 */
public final class KeywordRetriever implements DocumentIndex {

	/** Weight of the title in the score. */
	public static final double TITLE_WEIGHT = 0.5;

	/** Weight of the summary (or tags) in the score. */
	public static final double SUMMARY_WEIGHT = 0.3;

	/** Weight of the content in the score. */
	public static final double CONTENT_WEIGHT = 0.2;

	/** Metadata key whose value is scored like the summary. */
	public static final String TAGS = "tags";

	/** Queries longer than this many characters are cut: they come from models. */
	public static final int MAX_QUERY_LENGTH = 1000;

	private final KeywordExtractor extractor;

	private final Object writeLock = new Object();

	private volatile Map<String, Entry> entries = Map.of();

	private long sequence;

	/**
	 * Create an empty index with the {@linkplain KeywordExtractor#defaults() default}
	 * keyword extractor.
	 */
	public KeywordRetriever() {
		this(KeywordExtractor.defaults());
	}

	/**
	 * Create an empty index.
	 * @param extractor how keywords are extracted from queries
	 */
	public KeywordRetriever(KeywordExtractor extractor) {
		this.extractor = Objects.requireNonNull(extractor, "'extractor' must not be null");
	}

	/**
	 * Create an index of documents.
	 * @param documents the documents
	 * @return the index
	 */
	public static KeywordRetriever of(Collection<Document> documents) {
		KeywordRetriever retriever = new KeywordRetriever();
		retriever.put(List.copyOf(documents));
		return retriever;
	}

	@Override
	public Mono<Void> add(List<Document> documents) {
		List<Document> copy = List.copyOf(documents);
		return Mono.fromRunnable(() -> put(copy));
	}

	@Override
	public Mono<Void> delete(Collection<String> ids) {
		List<String> copy = List.copyOf(ids);
		return Mono.fromRunnable(() -> remove(copy));
	}

	@Override
	public Mono<List<ScoredDocument>> retrieve(SearchRequest request) {
		Objects.requireNonNull(request, "'request' must not be null");
		return Mono.fromSupplier(() -> search(request));
	}

	/**
	 * Return the number of documents.
	 * @return the size
	 */
	public int size() {
		return this.entries.size();
	}

	/**
	 * Search without going through a {@link Mono}.
	 * @param request what to search for
	 * @return at most top-k documents, best first
	 */
	public List<ScoredDocument> search(SearchRequest request) {
		String query = cut(request.query().strip());
		List<String> keywords = this.extractor.extract(query);
		if (keywords.isEmpty()) {
			return List.of();
		}
		Dice.Query prepared = Dice.Query.of(this.extractor.keywordText(query));
		List<Scored> scored = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (entry.containsAny(keywords) && request.matches(entry.document())) {
				double score = entry.score(prepared);
				if (score > 0 && score >= request.minScore()) {
					scored.add(new Scored(entry, score));
				}
			}
		}
		scored.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparingLong((s) -> s.entry().order()));
		return scored.stream()
			.limit(request.topK())
			.map((s) -> new ScoredDocument(s.entry().document(), s.score()))
			.toList();
	}

	/**
	 * Score a document against a query, as the class description says.
	 * @param query the query
	 * @param document the document
	 * @return the score, between 0 and 1
	 */
	public static double score(String query, Document document) {
		String text = KeywordExtractor.defaults().keywordText(cut(query.strip()));
		return Entry.of(document, 0).score(Dice.Query.of(text));
	}

	private void put(List<Document> documents) {
		synchronized (this.writeLock) {
			Map<String, Entry> next = new LinkedHashMap<>(this.entries);
			for (Document document : documents) {
				Objects.requireNonNull(document, "'documents' must not contain null");
				Entry previous = next.get(document.id());
				long order = (previous != null) ? previous.order() : this.sequence++;
				next.put(document.id(), Entry.of(document, order));
			}
			this.entries = next;
		}
	}

	private void remove(List<String> ids) {
		synchronized (this.writeLock) {
			Map<String, Entry> next = new LinkedHashMap<>(this.entries);
			ids.forEach(next::remove);
			this.entries = next;
		}
	}

	private static String cut(String query) {
		if (query.length() <= MAX_QUERY_LENGTH) {
			return query;
		}
		int end = MAX_QUERY_LENGTH;
		if (Character.isHighSurrogate(query.charAt(end - 1))) {
			end--;
		}
		return query.substring(0, end);
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + " (" + this.entries.size() + " documents)";
	}

	/** A document with its fields prepared once, for keyword matching and scoring. */
	private record Entry(Document document, long order, Dice.Field title, Dice.Field summary, Dice.Field tags,
			Dice.Field content) {

		static Entry of(Document document, long order) {
			return new Entry(document, order, Dice.Field.of(document.title()), Dice.Field.of(document.summary()),
					Dice.Field.of(document.metadata().getOrDefault(TAGS, "")), Dice.Field.of(document.content()));
		}

		boolean containsAny(List<String> keywords) {
			for (String keyword : keywords) {
				if (this.title.text().contains(keyword) || this.summary.text().contains(keyword)
						|| this.tags.text().contains(keyword) || this.content.text().contains(keyword)) {
					return true;
				}
			}
			return false;
		}

		double score(Dice.Query query) {
			double summary = Math.max(similarity(query, this.summary), similarity(query, this.tags));
			return TITLE_WEIGHT * similarity(query, this.title) + SUMMARY_WEIGHT * summary
					+ CONTENT_WEIGHT * similarity(query, this.content);
		}

		private static double similarity(Dice.Query query, Dice.Field field) {
			Dice.Scores scores = Dice.compare(query, field);
			return (scores.whole() + scores.window()) / 2;
		}

	}

	private record Scored(Entry entry, double score) {
	}

}
