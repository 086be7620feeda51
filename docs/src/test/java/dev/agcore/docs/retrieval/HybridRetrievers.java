package dev.agcore.docs.retrieval;

import java.util.List;

import dev.agcore.retrieval.HybridRetriever;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.lucene.LuceneDocumentIndex;

/** Hybrid retrievers, from docs/retrieval.md. */
class HybridRetrievers {

	static List<Retriever> build(Retriever keywordRetriever, LuceneDocumentIndex luceneIndex, Retriever a, Retriever b,
			Retriever c) {
		// tag::hybrid[]
		Retriever hybrid = new HybridRetriever(List.of(keywordRetriever, luceneIndex.vectorChannel()));
		Retriever tuned = new HybridRetriever(List.of(a, b, c), /* k */ 60, /* candidates */ 50);
		// end::hybrid[]
		return List.of(hybrid, tuned);
	}

}
