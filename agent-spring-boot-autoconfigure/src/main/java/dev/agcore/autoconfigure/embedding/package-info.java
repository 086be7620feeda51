/**
 * Auto-configuration of the {@link dev.agcore.embedding.EmbeddingModel}.
 */
@NullMarked
package dev.agcore.autoconfigure.embedding;

import org.jspecify.annotations.NullMarked;
