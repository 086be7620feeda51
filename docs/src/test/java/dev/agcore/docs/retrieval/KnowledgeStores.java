package dev.agcore.docs.retrieval;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.agcore.memory.KeyValueStore;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.retrieval.knowledge.KnowledgePage;
import dev.agcore.retrieval.knowledge.KnowledgeStore;
import dev.agcore.retrieval.knowledge.MarkdownKnowledgeLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

/** The knowledge store's API, from docs/retrieval.md. */
class KnowledgeStores {

	private static final Logger log = LoggerFactory.getLogger(KnowledgeStores.class);

	static KnowledgeStore tour(KeyValueStore keyValueStore, KnowledgePage page, Path knowledge) {
		// tag::store[]
		KnowledgeStore store = new KnowledgeStore(keyValueStore, "docs");   // searched by a new KeywordRetriever
		store.add(KnowledgePage.of("pricing", "Pricing", "Plans and prices.", "The team plan costs ...")
				.withTags(List.of("sales"))).block();
		store.update(page).block();            // KnowledgePageNotFoundException if there is no such page
		store.get("pricing").block();          // empty Mono if missing
		store.delete("pricing").block();       // true if there was one
		store.index();                         // List<KnowledgeIndexEntry>: id, title, summary, tags, by id
		store.indexPage();                     // Markdown: "# Knowledge index: docs" then "- [Pricing](pricing) — Plans and prices." per page, by id
		store.search("team plan price").block();               // List<ScoredDocument>, best first
		store.retrieve(SearchRequest.of("price").withTopK(3).withMinScore(0.1)
				.withFilter(Map.of("tag:sales", "true"))).block();
		store.rebuildIndex().block();          // re-read all pages of the key-value store (another instance wrote them)

		MarkdownKnowledgeLoader.Result result = MarkdownKnowledgeLoader.load(knowledge);   // a folder, such as Path.of("knowledge")
		Flux.fromIterable(result.pages()).concatMap(store::add).blockLast();
		result.problems().forEach((problem) -> log.warn("{}", problem));
		// end::store[]
		return store;
	}

}
