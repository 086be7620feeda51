/**
 * The knowledge store: pages with a title, summary, tags and content, kept in a
 * {@link dev.agcore.memory.KeyValueStore}, searchable through a
 * {@link dev.agcore.retrieval.DocumentIndex} and loadable from Markdown files.
 */
@NullMarked
package dev.agcore.retrieval.knowledge;

import org.jspecify.annotations.NullMarked;
