/**
 * The {@link dev.agcore.embedding.EmbeddingModel} SPI and its implementations.
 */
@NullMarked
package dev.agcore.embedding;

import org.jspecify.annotations.NullMarked;
