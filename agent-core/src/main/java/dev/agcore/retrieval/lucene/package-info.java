/**
 * {@link dev.agcore.retrieval.lucene.LuceneDocumentIndex}: documents in an embedded Apache
 * Lucene index, searched by BM25 and by HNSW vector similarity.
 */
@NullMarked
package dev.agcore.retrieval.lucene;

import org.jspecify.annotations.NullMarked;
