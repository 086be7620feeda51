/**
 * Retrieval: the {@link dev.agcore.retrieval.Retriever} and
 * {@link dev.agcore.retrieval.DocumentIndex} SPIs, keyword and hybrid retrievers, and the
 * knowledge store.
 */
@NullMarked
package dev.agcore.retrieval;

import org.jspecify.annotations.NullMarked;
