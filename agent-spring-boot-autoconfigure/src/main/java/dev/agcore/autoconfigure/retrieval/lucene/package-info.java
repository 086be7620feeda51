/**
 * Auto-configuration of the embedded Lucene document index.
 */
@NullMarked
package dev.agcore.autoconfigure.retrieval.lucene;

import org.jspecify.annotations.NullMarked;
