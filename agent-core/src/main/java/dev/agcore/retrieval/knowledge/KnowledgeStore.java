package dev.agcore.retrieval.knowledge;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;

import dev.agcore.memory.ItemQuery;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.MemoryItem;
import dev.agcore.retrieval.DocumentIndex;
import dev.agcore.retrieval.KeywordRetriever;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A named collection of {@link KnowledgePage knowledge pages}: kept in a
 * {@link KeyValueStore} (namespace {@code knowledge:<name>}, one key per page id), so a
 * persistent store keeps them across restarts, and searchable through a
 * {@link DocumentIndex}, a {@link KeywordRetriever} by default, which this store keeps in
 * sync. An in-memory index of the pages' titles and summaries gives the
 * {@link #indexPage() index page}.
 * <p>
 * Pages written to the key-value store behind this store's back (by another instance) are
 * seen by {@link #get} at once and by searches after {@link #rebuildIndex()}, which also
 * repairs any drift. Concurrent writes of the same page: the last one wins. Thread-safe.
 *
 * @since 0.1.0
 */
public final class KnowledgeStore implements Retriever {

	/** Prefix of the key-value namespace of a store. */
	public static final String NAMESPACE_PREFIX = "knowledge:";

	private static final Logger logger = LoggerFactory.getLogger(KnowledgeStore.class);

	private final KeyValueStore store;

	private final String name;

	private final String namespace;

	private final DocumentIndex documents;

	private final Clock clock;

	private final Map<String, KnowledgeIndexEntry> index = new ConcurrentSkipListMap<>();

	/**
	 * Create a store searched by a new {@link KeywordRetriever}.
	 * @param store where pages are kept
	 * @param name the store's name, e.g. {@code default}
	 */
	public KnowledgeStore(KeyValueStore store, String name) {
		this(store, name, new KeywordRetriever(), Clock.systemUTC());
	}

	/**
	 * Create a store.
	 * @param store where pages are kept
	 * @param name the store's name, e.g. {@code default}
	 * @param documents the index searches go to; this store's own, as it adds and deletes
	 * every page there
	 * @param clock the clock of the pages' timestamps
	 */
	public KnowledgeStore(KeyValueStore store, String name, DocumentIndex documents, Clock clock) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		Objects.requireNonNull(name, "'name' must not be null");
		if (name.isBlank()) {
			throw new IllegalArgumentException("'name' must not be blank");
		}
		this.name = name;
		this.namespace = NAMESPACE_PREFIX + name;
		this.documents = Objects.requireNonNull(documents, "'documents' must not be null");
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
	}

	/**
	 * Return the store's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Add a page, or replace the page with its id. A replaced page keeps its creation
	 * time; the update time is now.
	 * @param page the page; its timestamps are ignored
	 * @return the page as stored, with its timestamps
	 */
	public Mono<KnowledgePage> add(KnowledgePage page) {
		Objects.requireNonNull(page, "'page' must not be null");
		return existing(page.id()).defaultIfEmpty(Existing.NONE).flatMap((existing) -> save(page, existing));
	}

	/**
	 * Replace a page that exists. It keeps its creation time; the update time is now.
	 * @param page the page; its timestamps are ignored
	 * @return the page as stored; a {@link KnowledgePageNotFoundException} if there is no
	 * page with its id
	 */
	public Mono<KnowledgePage> update(KnowledgePage page) {
		Objects.requireNonNull(page, "'page' must not be null");
		return existing(page.id())
			.switchIfEmpty(Mono.error(() -> new KnowledgePageNotFoundException(this.name, page.id())))
			.flatMap((existing) -> save(page, existing));
	}

	/**
	 * Read a page.
	 * @param id the id
	 * @return the page; empty if there is none; a {@link KnowledgeStoreException} if it is
	 * stored in a form that cannot be read
	 */
	public Mono<KnowledgePage> get(String id) {
		Objects.requireNonNull(id, "'id' must not be null");
		return this.store.get(this.namespace, id).map((json) -> read(id, json));
	}

	/**
	 * Remove a page.
	 * @param id the id
	 * @return whether there was one
	 */
	public Mono<Boolean> delete(String id) {
		Objects.requireNonNull(id, "'id' must not be null");
		return this.store.delete(this.namespace, id).flatMap((deleted) -> {
			this.index.remove(id);
			return this.documents.delete(List.of(id)).thenReturn(deleted);
		});
	}

	/**
	 * Return what pages there are, by id.
	 * @return a snapshot of the index
	 */
	public List<KnowledgeIndexEntry> index() {
		return List.copyOf(this.index.values());
	}

	/**
	 * Render the index as a Markdown page: a heading and one line per page, by id,
	 * {@code - [Title](id) — summary}, for a model or a person to see at a glance what
	 * the store knows.
	 * @return the Markdown
	 */
	public String indexPage() {
		StringBuilder page = new StringBuilder("# Knowledge index: ").append(this.name).append("\n\n");
		if (this.index.isEmpty()) {
			return page.append("No pages yet.\n").toString();
		}
		for (KnowledgeIndexEntry entry : this.index.values()) {
			String title = entry.title().isBlank() ? entry.id() : oneLine(entry.title());
			String text = title.replace("[", "\\[").replace("]", "\\]");
			page.append("- [").append(text).append("](").append(link(entry.id())).append(")");
			if (!entry.summary().isBlank()) {
				page.append(" — ").append(oneLine(entry.summary()));
			}
			page.append('\n');
		}
		return page.toString();
	}

	/**
	 * Search the pages, in this store's {@link DocumentIndex}.
	 * @param request what to search for
	 * @return at most top-k pages as documents, best first
	 */
	@Override
	public Mono<List<ScoredDocument>> retrieve(SearchRequest request) {
		return this.documents.retrieve(request);
	}

	/**
	 * Search the pages for a text, with the default top-k and no minimum score.
	 * @param query the text
	 * @return the best pages as documents, best first
	 */
	public Mono<List<ScoredDocument>> search(String query) {
		return retrieve(SearchRequest.of(query));
	}

	/**
	 * Read every page of the key-value store again and make the index and the document
	 * index hold exactly those: for a store that was written by another instance, or after
	 * a restart. A page that cannot be read is left out and logged.
	 * @return the number of pages
	 */
	public Mono<Integer> rebuildIndex() {
		// one listing reads every page with its value: no read per page
		return this.store.list(this.namespace, ItemQuery.all())
			.flatMapMany(Flux::fromIterable)
			.sort(Comparator.comparing(MemoryItem::key))
			.concatMap((item) -> readOrSkip(item.key(), item.value()))
			.collectList()
			.flatMap((pages) -> {
				Set<String> ids = new HashSet<>();
				pages.forEach((page) -> ids.add(page.id()));
				List<String> gone = new ArrayList<>();
				for (String id : this.index.keySet()) {
					if (!ids.contains(id)) {
						gone.add(id);
					}
				}
				gone.forEach(this.index::remove);
				pages.forEach((page) -> this.index.put(page.id(), KnowledgeIndexEntry.of(page)));
				return this.documents.delete(gone)
					.then(this.documents.add(pages.stream().map((page) -> page.toDocument(this.name)).toList()))
					.thenReturn(pages.size());
			});
	}

	/**
	 * Find what a write replaces. A stored value that cannot be read is replaced like any
	 * other, taking a new creation time.
	 */
	private Mono<Existing> existing(String id) {
		return this.store.get(this.namespace, id).map((json) -> {
			try {
				return new Existing(read(id, json).createdAt());
			}
			catch (KnowledgeStoreException ex) {
				logger.warn("{}; replacing it", LogSafe.text(ex.getMessage()));
				return new Existing(null);
			}
		});
	}

	private Mono<KnowledgePage> save(KnowledgePage page, Existing existing) {
		Instant now = this.clock.instant();
		Instant createdAt = (existing.createdAt() != null) ? existing.createdAt() : now;
		KnowledgePage stored = page.withTimestamps(createdAt, now);
		return this.store.put(this.namespace, page.id(), KnowledgePageJson.write(stored)).then(Mono.defer(() -> {
			this.index.put(stored.id(), KnowledgeIndexEntry.of(stored));
			return this.documents.add(List.of(stored.toDocument(this.name)));
		})).thenReturn(stored);
	}

	private KnowledgePage read(String id, JsonNode json) {
		try {
			KnowledgePage page = KnowledgePageJson.read(json);
			if (!page.id().equals(id)) {
				throw new IllegalArgumentException("it says its id is '" + page.id() + "'");
			}
			return page;
		}
		catch (IllegalArgumentException ex) {
			throw new KnowledgeStoreException("Knowledge page '" + id + "' in namespace '" + this.namespace
					+ "' cannot be read: " + ex.getMessage(), ex);
		}
	}

	private Mono<KnowledgePage> readOrSkip(String id, JsonNode json) {
		try {
			return Mono.just(read(id, json));
		}
		catch (KnowledgeStoreException ex) {
			logger.warn("{}; left out of the index", LogSafe.text(ex.getMessage()));
			return Mono.empty();
		}
	}

	/** A stored page a write replaces, or {@link #NONE}. */
	private record Existing(@Nullable Instant createdAt) {

		static final Existing NONE = new Existing(null);

	}

	private static String link(String id) {
		return id.replace("%", "%25").replace(" ", "%20").replace("(", "%28").replace(")", "%29");
	}

	private static String oneLine(String text) {
		return text.strip().replaceAll("\\s+", " ");
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + " '" + this.name + "' (" + this.index.size() + " pages)";
	}

}
