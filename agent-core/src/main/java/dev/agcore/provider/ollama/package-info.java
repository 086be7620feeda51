/**
 * Ollama's native API: {@link dev.agcore.provider.ollama.OllamaChatModel} for chat
 * ({@code /api/chat}) and {@link dev.agcore.provider.ollama.OllamaEmbeddingModel} for
 * embeddings. (Ollama's OpenAI-compatible {@code /v1} API is reached with
 * {@code provider.openai} instead.)
 */
@NullMarked
package dev.agcore.provider.ollama;

import org.jspecify.annotations.NullMarked;
