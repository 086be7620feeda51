package dev.agcore.docs.retrieval;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.retrieval.lucene.LuceneDocumentIndex;

/** A Lucene index in Java, from docs/retrieval.md. */
class LuceneIndexes {

	static List<ScoredDocument> search(Path indexFolder, EmbeddingModel embeddingModel) {
		// tag::lucene[]
		LuceneDocumentIndex index = LuceneDocumentIndex.builder()
			.path(indexFolder)                    // such as Path.of("data/index"); omit for in-memory
			.embeddingModel(embeddingModel)        // omit for keyword search only
			.build();
		index.add(List.of(new Document("faq-12", "Resetting your password", "", "If you forgot ...",
				Map.of("namespace", "help", "lang", "en")))).block();
		List<ScoredDocument> hits = index.retrieve(
				new SearchRequest("I can't log in", 5, 0, Map.of("namespace", "help"))).block();
		index.keywordChannel();   // BM25 alone
		index.vectorChannel();    // vectors alone
		index.close();
		// end::lucene[]
		return hits;
	}

}
