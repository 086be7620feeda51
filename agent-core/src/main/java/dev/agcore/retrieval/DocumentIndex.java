package dev.agcore.retrieval;

import java.util.Collection;
import java.util.List;

import reactor.core.publisher.Mono;

/**
 * A searchable collection of documents: the SPI behind which vector and keyword indexes
 * live. Adding a document with the id of one already there replaces it.
 *
 * @since 0.1.0
 */
public interface DocumentIndex extends Retriever {

	/**
	 * Add or replace documents.
	 * @param documents the documents
	 * @return completes when they are searchable
	 */
	Mono<Void> add(List<Document> documents);

	/**
	 * Remove documents; unknown ids are ignored.
	 * @param ids the ids
	 * @return completes when removed
	 */
	Mono<Void> delete(Collection<String> ids);

}
