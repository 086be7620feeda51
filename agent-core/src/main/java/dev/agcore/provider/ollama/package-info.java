/**
 * Ollama's native API: {@link dev.agcore.provider.ollama.OllamaEmbeddingModel}. (Ollama's
 * chat is reached through its OpenAI-compatible {@code /v1} API.)
 */
@NullMarked
package dev.agcore.provider.ollama;

import org.jspecify.annotations.NullMarked;
