/**
 * Auto-configuration of the knowledge store, its keyword retriever and the
 * {@code retrieve} tool.
 */
@NullMarked
package dev.agcore.autoconfigure.retrieval;

import org.jspecify.annotations.NullMarked;
