package dev.agcore.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * where {@code dice} is the {@linkplain Dice Dice coefficient over character bigrams}.
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
		List<Scored> scored = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (entry.containsAny(keywords) && request.matches(entry.document())) {
				double score = score(query, entry.document());
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
		String tags = document.metadata().getOrDefault(TAGS, "");
		double summary = Math.max(similarity(query, document.summary()), similarity(query, tags));
		return TITLE_WEIGHT * similarity(query, document.title()) + SUMMARY_WEIGHT * summary
				+ CONTENT_WEIGHT * similarity(query, document.content());
	}

	private static double similarity(String query, String field) {
		if (field.isEmpty()) {
			return 0;
		}
		return (Dice.similarity(query, field) + Dice.bestWindow(query, field)) / 2;
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

	/** A document with its fields lower-cased once, for keyword matching. */
	private record Entry(Document document, long order, String text) {

		static Entry of(Document document, long order) {
			String text = String.join("\n", document.title(), document.summary(),
					document.metadata().getOrDefault(TAGS, ""), document.content())
				.toLowerCase(Locale.ROOT);
			return new Entry(document, order, text);
		}

		boolean containsAny(List<String> keywords) {
			for (String keyword : keywords) {
				if (this.text.contains(keyword)) {
					return true;
				}
			}
			return false;
		}

	}

	private record Scored(Entry entry, double score) {
	}

}
