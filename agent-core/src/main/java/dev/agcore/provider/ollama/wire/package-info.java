/**
 * The JSON shapes of Ollama's native chat API ({@code /api/chat}) and their mapping to
 * the library's types. Internal: these types may change in any release without notice;
 * no compatibility is promised.
 */
@NullMarked
package dev.agcore.provider.ollama.wire;

import org.jspecify.annotations.NullMarked;
